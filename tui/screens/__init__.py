"""One screen per module: review, memories, history, sessions, help and the modals."""
