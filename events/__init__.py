"""The event log: schema, append, read, verify and the replay fold. Imports nothing of ours."""
