"""Precision and recall of the heuristic on the labelled real histories (ADR 0033), and on the shared data.

    python -m tools.extraction_eval                       # print the figures
    python -m tools.extraction_eval --write docs/extraction.md

The labelled set (``tests/memory_review/extract/labelled/{dev,heldout}.json``) holds real user prompts from
public coding-agent histories, each labelled by hand: ``durable`` (a reviewer would keep it and the extractor
must find it), ``maybe`` (a reviewer could keep it: a proposal of it counts as worth keeping, missing it is no
fault) or ``one-off``. A proposal is *worth keeping* when the prompt its first quote comes from is ``durable``
or ``maybe``; a long prompt may name the part that is the rule (``keep``: a list of passages), and then the
quote must be, or contain, one of them. A durable prompt is *found* when a proposal quotes it that way, or when
it says a kept quote word for word ("said again", ADR 0113). Proposals are what
:func:`memory_review.extract.plan.plan` makes of the findings with empty stores, i.e. what a reviewer would
see.

Splits: ``dev`` and ``heldout`` (ADR 0033), ``dev2``, ``heldout2`` and ``heldout3`` (ADR 0044: prompt
histories with standing rules in them, so that recall can be measured; ``dev2`` and ``heldout2`` were removed in
session 34, their repositories having no licence), ``dev3`` and ``heldout4`` (ADR 0049:
the second round of the heuristic, tuned on the dev splits, measured on a fresh held-out split) and
``heldout5`` (ADR 0049: a bigger fresh held-out split, measured with the second round frozen). The third round
(ADR 0054) tuned on held-out 4 and 5, so their rows are named ``dev4`` and ``dev5`` (seen) from then on; the
fourth round (ADR 0057) tuned on held-out 6 (``heldout6``, ADR 0054), whose row is ``dev6`` (seen) from then on.
``heldout7``, ``heldout8`` and ``heldout9`` (ADR 0057, "Held-out 7, 8 and 9") measured the frozen fourth round on
fresh data; the fifth round (ADR 0058) tuned on them, so their rows are ``dev7``, ``dev8`` and ``dev9`` (seen) from
then on. ``heldout10`` (ADR 0058, "Held-out 10"), labelled apart, measured the frozen fifth round once; the sixth
round (ADR 0059) tuned on it, so its row is ``dev10`` (seen) from then on. ``heldout11`` (ADR 0059, "Held-out
11") measured the frozen sixth round once. ``heldout12``, ``heldout13`` and ``heldout14`` (ADR 0062) measured the
frozen sixth round, and held-out 14 the seventh; the seventh and eighth rounds (ADR 0062, 0063) tuned on them, so
their rows are ``dev12``, ``dev13`` and ``dev14`` (seen). ``heldout15`` and ``heldout16`` (ADR 0063) measured the
frozen eighth round once, and ``heldout19`` (ADR 0063) again; the ninth round (ADR 0064) tuned on held-out 19, so its
row is ``dev19`` (seen). ``heldout20``, ``heldout21``, ``heldout22`` and ``heldout23`` (ADR 0065) measured the frozen
ninth and tenth rounds once; the tenth took an example from held-out 15, whose row is ``dev15`` (seen). ``judged1``
(ADR 0066) is a judged split: a whole history, only the frozen tenth round's proposals and decoys among them judged,
blind; ``heldout24`` measured the tenth round too. The eleventh round (ADR 0067) tuned on both: their rows read
``dev24`` and ``judged1`` (seen). ``heldout25`` to ``heldout29`` (ADR 0067) measured the frozen tenth and eleventh
rounds once; the twelfth round (ADR 0068) tuned on the Japanese prompts of held-out 20, 27 and 29, whose rows read
``dev20``, ``dev27`` and ``dev29`` (seen). ``heldout30`` measured the frozen eleventh and twelfth rounds once. The
thirteenth round (ADR 0069) tuned on held-out 25, 28 and 29's misses and mistakes: their rows read ``dev25``,
``dev28`` and ``dev29`` (seen). ``heldout31`` and ``heldout32`` measured the frozen twelfth and thirteenth rounds once;
the fourteenth round (ADR 0070) tuned on them: their rows read ``dev31`` and ``dev32`` (seen). ``heldout33`` to
``heldout36`` measured the frozen twelfth, thirteenth and fourteenth rounds once; the fifteenth round (ADR 0071)
tuned on held-out 35 and 36: their rows read ``dev35`` and ``dev36`` (seen). ``heldout37`` and ``heldout38`` measured
the frozen twelfth to fifteenth rounds once. The sixteenth round (ADR 0073) tuned on held-out 19, 28, 35 and 36's
misses, all already seen. ``heldout40`` measured the frozen fifteenth and sixteenth rounds once; the seventeenth round
(ADR 0074) tuned on it: its row reads ``dev40`` (seen). ``heldout39``, ``heldout41`` and ``heldout42`` measured the
frozen fifteenth to seventeenth rounds once; the eighteenth round (ADR 0075) tuned on held-out 42: its row reads
``dev42`` (seen). ``heldout43`` and ``heldout44`` measured the frozen fifteenth to eighteenth rounds once; the
nineteenth round (ADR 0076) tuned on held-out 43: its row reads ``dev43`` (seen). ``heldout45`` and ``heldout46``
measured the frozen fifteenth to nineteenth rounds once. ``heldout47`` to ``heldout56`` are prompt logs people keep in
their repositories. ``heldout47`` to ``heldout51`` measured the frozen nineteenth round once; the twentieth round (ADR
0077) tuned on held-out 48 and 51: their rows read ``dev48`` and ``dev51`` (seen). ``heldout52`` to ``heldout54``
measured the frozen nineteenth and twentieth rounds once; the twenty-first round (ADR 0078) tuned on held-out 52: its
row reads ``dev52`` (seen). ``heldout55`` and ``heldout56`` measured the frozen nineteenth to twenty-first rounds once.
The twenty-second round (ADR 0081) tuned on held-out 48, already seen; the twenty-third (ADR 0082) on held-out 53: its
row reads ``dev53`` (seen). ``heldout58`` to ``heldout63`` (later stretches of people already in a split, two new
people's Copilot chat exports) measured the frozen twenty-third round once; the twenty-fourth (ADR 0083) tuned on
held-out 60: its row reads ``dev60`` (seen). ``heldout57``, ``heldout64`` and ``heldout65`` measured the frozen
twenty-third and twenty-fourth rounds once; the twenty-fifth (ADR 0084) tuned on held-out 57: its row reads ``dev57``
(seen). ``heldout66`` to ``heldout69`` (IBM Bob task exports, a 185-prompt Copilot log) measured the frozen
twenty-third to twenty-fifth rounds once; the twenty-sixth (ADR 0085) tuned on held-out 69: its row reads ``dev69``
(seen). ``heldout70`` measured the frozen twenty-third to twenty-sixth rounds once. The twenty-seventh (ADR 0086)
tuned on held-out 66: its row reads ``dev66`` (seen); the twenty-eighth (ADR 0087) on held-out 53 and 69, both seen.
``heldout71`` to ``heldout77`` (later stretches of Bob exports, transcripts and prompt-history records; a new person's
Amp threads; prompt logs) measured the frozen twenty-eighth round with the planner's merge of ADR 0088 once; the
twenty-ninth (ADR 0089) tuned on held-out 72, 75 and 77: their rows read ``dev72``, ``dev75`` and ``dev77`` (seen).
``heldout78`` (a later stretch of held-out 72's person) measured the frozen twenty-eighth and twenty-ninth rounds once;
the thirtieth (ADR 0090) tuned on it: its row reads ``dev78`` (seen).
``heldout79`` and ``heldout80`` (a new person's Kiro CLI prompt history, another's pi agent sessions) measured the
frozen twenty-eighth to thirtieth rounds once. ``heldout81`` (three new people's IBM Bob exports) measured the frozen
twenty-eighth to thirty-first rounds once.
``heldout82`` to ``heldout86`` (later stretches of Bob exports, Amp threads and Claude Code transcripts; more of
held-out 80's person's pi agent sessions) measured the frozen thirty-first round once; the thirty-second (ADR 0092)
tuned on held-out 84 and 85: their rows read ``dev84`` and ``dev85`` (seen).
``heldout87`` to ``heldout90`` (later stretches of two prompt histories, hand-kept chat logs, SpecStory exports, Codex
rollouts, Cursor agent transcripts and pi sessions) measured the frozen thirty-second round once; the thirty-third
(ADR 0093) tuned on held-out 87, 88 and 89: their rows read ``dev87``, ``dev88`` and ``dev89`` (seen).
``heldout91`` and ``heldout93`` (more of two people's Codex rollouts and Japanese chat exports) measured the frozen
thirty-third round once; the thirty-fourth (ADR 0094) tuned on held-out 93: its row reads ``dev93`` (seen).
``heldout92`` (more of two people's pi sessions and Cursor agent transcripts) measured the frozen thirty-third and
thirty-fourth rounds once; the thirty-sixth (ADR 0096) tuned on it: its row reads ``dev92`` (seen).
``heldout94`` (more of held-out 91's Codex rollouts) measured the frozen thirty-fourth round once; the thirty-fifth
(ADR 0095) tuned on it: its row reads ``dev94`` (seen).
``heldout95`` and ``heldout96`` (more of held-out 84's person's pi sessions and of held-out 91's Codex rollouts)
measured the frozen thirty-fifth round once.
``heldout97`` to ``heldout103`` (prompt logs, three new people's Claude Code prompt histories, more pi sessions, a
new person's Claude Code transcripts, more records of one person's prompt history, a Cursor chat) measured the frozen
thirty-fifth and thirty-sixth rounds once; the thirty-seventh (ADR 0097) tuned on held-out 98: its row reads ``dev98``
(seen); the thirty-eighth (ADR 0098) on held-out 102: its row reads ``dev102`` (seen).
``heldout104`` and ``heldout105`` (more of held-out 102's person's transcripts; three new people's chat logs) measured
the frozen thirty-sixth and thirty-seventh rounds once. ``heldout106`` and ``heldout107`` (the rest of held-out 98's and
105's people's histories, more of held-out 98's other person's) measured the frozen thirty-seventh and thirty-eighth
rounds once; the thirty-ninth (ADR 0099) tuned on held-out 106: its row reads ``dev106`` (seen).
``heldout109`` and ``heldout110`` (the next stretches of held-out 98's imorgado's history) measured the frozen
thirty-eighth and thirty-ninth rounds once; the fortieth (ADR 0100) tuned on held-out 109: its row reads ``dev109``
(seen). ``heldout111`` and ``heldout112`` (his history further on) measured the frozen thirty-ninth and fortieth rounds
once; the forty-first (ADR 0101) tuned on both: their rows read ``dev111`` and ``dev112`` (seen). ``heldout113`` (his
history further on) measured the frozen fortieth and forty-first rounds once, ``heldout114`` (further on) the
forty-first with its review mends.

The shared data (``MEMORY_REVIEW_TEST_DATA``, else ``../shared/data``) has no labels: its real Claude
Code sessions hold no durable statement, so every proposal there counts as one not worth keeping.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memory_review.extract.builder import session_key
from memory_review.extract.heuristic import extract
from memory_review.extract.plan import PlannedProposal, plan
from memory_review.extract.readers import read_transcript
from memory_review.extract.transcript import Transcript, Turn
from tools import figures_page

REPO = Path(__file__).resolve().parents[1]
LABELLED = REPO / "tests" / "memory_review" / "extract" / "labelled"
KEEP = frozenset({"durable", "maybe"})
LABELS = frozenset({"durable", "maybe", "one-off"})
UNJUDGED = "unjudged"
"""A judged split's label for a prompt the judge never saw (ADR 0066)."""
SPLITS = (
    "dev",
    "heldout",
    "heldout3",
    "dev3",
    "heldout4",
    "heldout5",
    "heldout6",
    "heldout7",
    "heldout8",
    "heldout9",
    "heldout10",
    "heldout11",
    "heldout12",
    "heldout13",
    "heldout14",
    "heldout15",
    "heldout16",
    "heldout19",
    "heldout20",
    "heldout21",
    "heldout22",
    "heldout23",
    "heldout24",
    "heldout25",
    "heldout26",
    "heldout27",
    "heldout28",
    "heldout29",
    "heldout30",
    "heldout31",
    "heldout32",
    "heldout33",
    "heldout34",
    "heldout35",
    "heldout36",
    "heldout37",
    "heldout38",
    "heldout39",
    "heldout40",
    "heldout41",
    "heldout42",
    "heldout43",
    "heldout44",
    "heldout45",
    "heldout46",
    "heldout47",
    "heldout48",
    "heldout49",
    "heldout50",
    "heldout51",
    "heldout52",
    "heldout53",
    "heldout54",
    "heldout55",
    "heldout56",
    "heldout57",
    "heldout58",
    "heldout59",
    "heldout60",
    "heldout61",
    "heldout62",
    "heldout63",
    "heldout64",
    "heldout65",
    "heldout66",
    "heldout67",
    "heldout68",
    "heldout69",
    "heldout70",
    "heldout71",
    "heldout72",
    "heldout73",
    "heldout74",
    "heldout75",
    "heldout76",
    "heldout77",
    "heldout78",
    "heldout79",
    "heldout80",
    "heldout81",
    "heldout82",
    "heldout83",
    "heldout84",
    "heldout85",
    "heldout86",
    "heldout87",
    "heldout88",
    "heldout89",
    "heldout90",
    "heldout91",
    "heldout92",
    "heldout93",
    "heldout94",
    "heldout95",
    "heldout96",
    "heldout97",
    "heldout98",
    "heldout99",
    "heldout100",
    "heldout101",
    "heldout102",
    "heldout103",
    "heldout104",
    "heldout105",
    "heldout106",
    "heldout107",
    "heldout109",
    "heldout110",
    "heldout111",
    "heldout112",
    "heldout113",
    "heldout114",
    "heldout115",
    "heldout116",
    "heldout117",
    "heldout118",
    "heldout119",
    "heldout120",
    "heldout121",
    "heldout122",
    "heldout123",
    "heldout124",
    "heldout125",
    "heldout126",
    "heldout127",
    "heldout128",
    "heldout130",
    "heldout131",
    "heldout132",
    "heldout133",
    "heldout135",
    "heldout136",
    "heldout137",
    "heldout139",
    "heldout140",
    "heldout141",
    "heldout142",
    "heldout143",
    "heldout144",
    "heldout145",
    "heldout146",
    "heldout148",
    "heldout149",
    "heldout150",
    "heldout151",
    "heldout152",
    "heldout153",
    "heldout154",
    "heldout156",
    "heldout158",
    "heldout159",
    "heldout160",
    "heldout161",
    "heldout162",
    "heldout163",
    "heldout164",
    "heldout165",
    "heldout166",
    "heldout167",
    "heldout168",
    "heldout169",
    "heldout170",
    "heldout172",
    "heldout173",
    "heldout174",
    "heldout175",
    "heldout176",
    "heldout177",
    "heldout178",
    "heldout180",
    "heldout181",
    "heldout182",
    "heldout183",
    "heldout184",
    "heldout185",
    "heldout186",
    "heldout187",
    "heldout188",
    "heldout190",
    "heldout191",
    "heldout192",
    "heldout193",
    "heldout194",
    "heldout195",
    "heldout196",
    "heldout199",
    "heldout200",
    "heldout201",
    "heldout202",
    "heldout203",
    "heldout204",
    "heldout205",
    "heldout206",
    "heldout207",
    "heldout208",
    "heldout209",
    "heldout210",
    "heldout211",
    "heldout212",
    "heldout213",
    "heldout214",
    "heldout215",
    "heldout216",
    "heldout217",
    "heldout218",
    "heldout219",
    "heldout220",
    "heldout221",
    "heldout222",
    "heldout223",
    "heldout224",
    "heldout225",
    "heldout227",
    "heldout228",
    "heldout229",
    "heldout231",
    "heldout232",
    "heldout233",
    "heldout234",
    "heldout235",
    "heldout236",
    "heldout238",
    "heldout239",
    "heldout242",
    "heldout243",
    "heldout244",
    "heldout245",
    "heldout247",
    "heldout248",
    "heldout249",
    "heldout250",
    "heldout251",
    "heldout252",
    "heldout253",
    "heldout255",
    "heldout256",
    "heldout257",
    "heldout258",
    "heldout259",
    "heldout260",
    "heldout261",
    "heldout262",
    "heldout263",
    "heldout264",
    "heldout265",
    "heldout266",
    "heldout271",
    "heldout272",
    "heldout273",
    "heldout274",
    "heldout275",
    "heldout276",
    "heldout277",
    "heldout278",
    "heldout279",
    "heldout280",
    "heldout281",
    "heldout282",
    "heldout284",
    "heldout286",
    "heldout288",
    "heldout289",
    "heldout290",
    "heldout291",
    "heldout292",
    "heldout293",
    "heldout294",
    "heldout296",
    "heldout297",
    "heldout298",
    "heldout299",
    "heldout300",
    "heldout301",
    "heldout302",
    "heldout303",
    "heldout304",
    "heldout305",
    "heldout306",
    "heldout307",
    "heldout308",
    "heldout309",
    "heldout310",
    "heldout311",
    "heldout312",
    "heldout313",
    "heldout322",
    "heldout323",
    "heldout324",
    "heldout325",
    "heldout326",
    "heldout327",
    "heldout328",
    "heldout329",
    "heldout330",
    "heldout331",
    "heldout332",
    "heldout333",
    "heldout334",
    "heldout335",
    "heldout336",
    "heldout337",
    "heldout338",
    "heldout339",
    "heldout340",
    "heldout341",
    "heldout342",
    "heldout344",
    "heldout347",
    "heldout348",
    "heldout349",
    "heldout350",
    "heldout353",
    "heldout354",
    "heldout355",
    "heldout356",
    "heldout357",
    "heldout358",
    "heldout359",
    "heldout361",
    "heldout362",
    "heldout363",
    "heldout364",
    "heldout367",
    "heldout368",
    "heldout369",
    "heldout370",
    "heldout371",
    "heldout372",
    "heldout373",
    "heldout376",
    "heldout377",
    "heldout379",
    "heldout380",
    "heldout381",
    "heldout382",
    "heldout383",
    "heldout384",
    "heldout385",
    "heldout386",
    "heldout387",
    "heldout388",
    "heldout389",
    "heldout390",
    "heldout391",
    "heldout392",
    "heldout393",
    "heldout394",
    "heldout395",
    "heldout396",
    "heldout400",
    "heldout401",
    "heldout404",
    "heldout405",
    "heldout408",
    "heldout409",
    "heldout410",
    "heldout411",
    "heldout412",
    "heldout413",
    "heldout414",
    "heldout415",
    "heldout416",
    "heldout417",
    "heldout418",
    "heldout419",
    "heldout420",
    "heldout421",
    "heldout422",
    "heldout423",
    "heldout425",
    "heldout426",
    "heldout427",
    "heldout428",
    "judged1",
)
# Held-out 4 and 5 were measured, then tuned on by the third round (ADR 0054), held-out 6 by the fourth (ADR 0057),
# held-out 7, 8 and 9 by the fifth (ADR 0058), held-out 10 by the sixth (ADR 0059): their files keep their names,
# their rows say what they are now.
ROLES = {
    "heldout4": "dev4 (seen; was heldout4)",
    "heldout5": "dev5 (seen; was heldout5)",
    "heldout6": "dev6 (seen; was heldout6)",
    "heldout7": "dev7 (seen; was heldout7)",
    "heldout8": "dev8 (seen; was heldout8)",
    "heldout9": "dev9 (seen; was heldout9)",
    "heldout10": "dev10 (seen; was heldout10)",
    "heldout12": "dev12 (seen; was heldout12)",
    "heldout13": "dev13 (seen; was heldout13)",
    "heldout14": "dev14 (seen; was heldout14)",
    "heldout15": "dev15 (seen; was heldout15)",
    "heldout19": "dev19 (seen; was heldout19)",
    "heldout20": "dev20 (seen; was heldout20)",
    "heldout24": "dev24 (seen; was heldout24)",
    "heldout25": "dev25 (seen; was heldout25)",
    "heldout27": "dev27 (seen; was heldout27)",
    "heldout28": "dev28 (seen; was heldout28)",
    "heldout29": "dev29 (seen; was heldout29)",
    "heldout31": "dev31 (seen; was heldout31)",
    "heldout32": "dev32 (seen; was heldout32)",
    "heldout35": "dev35 (seen; was heldout35)",
    "heldout36": "dev36 (seen; was heldout36)",
    "heldout40": "dev40 (seen; was heldout40)",
    "heldout42": "dev42 (seen; was heldout42)",
    "heldout43": "dev43 (seen; was heldout43)",
    "heldout48": "dev48 (seen; was heldout48)",
    "heldout51": "dev51 (seen; was heldout51)",
    "heldout52": "dev52 (seen; was heldout52)",
    "heldout53": "dev53 (seen; was heldout53)",
    "heldout55": "dev55 (seen; was heldout55)",
    "heldout57": "dev57 (seen; was heldout57)",
    "heldout60": "dev60 (seen; was heldout60)",
    "heldout66": "dev66 (seen; was heldout66)",
    "heldout69": "dev69 (seen; was heldout69)",
    "heldout72": "dev72 (seen; was heldout72)",
    "heldout75": "dev75 (seen; was heldout75)",
    "heldout77": "dev77 (seen; was heldout77)",
    "heldout78": "dev78 (seen; was heldout78)",
    "heldout84": "dev84 (seen; was heldout84)",
    "heldout85": "dev85 (seen; was heldout85)",
    "heldout87": "dev87 (seen; was heldout87)",
    "heldout88": "dev88 (seen; was heldout88)",
    "heldout89": "dev89 (seen; was heldout89)",
    "heldout92": "dev92 (seen; was heldout92)",
    "heldout93": "dev93 (seen; was heldout93)",
    "heldout94": "dev94 (seen; was heldout94)",
    "heldout98": "dev98 (seen; was heldout98)",
    "heldout102": "dev102 (seen; was heldout102)",
    "heldout106": "dev106 (seen; was heldout106)",
    "heldout109": "dev109 (seen; was heldout109)",
    "heldout111": "dev111 (seen; was heldout111)",
    "heldout112": "dev112 (seen; was heldout112)",
    "heldout115": "dev115 (seen; was heldout115)",
    "heldout116": "dev116 (seen; was heldout116)",
    "heldout117": "dev117 (seen; was heldout117)",
    "heldout118": "dev118 (seen; was heldout118)",
    "heldout121": "dev121 (seen; was heldout121)",
    "heldout122": "dev122 (seen; was heldout122)",
    "heldout123": "dev123 (seen; was heldout123)",
    "heldout128": "dev128 (seen; was heldout128)",
    "heldout137": "dev137 (seen; was heldout137)",
    "heldout140": "dev140 (seen; was heldout140)",
    "heldout146": "dev146 (seen; was heldout146)",
    "heldout152": "dev152 (seen; was heldout152)",
    "heldout159": "dev159 (seen; was heldout159)",
    "heldout161": "dev161 (seen; was heldout161)",
    "heldout164": "dev164 (seen; was heldout164)",
    "heldout169": "dev169 (seen; was heldout169)",
    "heldout173": "dev173 (seen; was heldout173)",
    "heldout175": "dev175 (seen; was heldout175)",
    "heldout178": "dev178 (seen; was heldout178)",
    "heldout181": "dev181 (seen; was heldout181)",
    "heldout183": "dev183 (seen; was heldout183)",
    "heldout184": "dev184 (seen; was heldout184)",
    "heldout204": "dev204 (seen; was heldout204)",
    "heldout205": "dev205 (seen; was heldout205)",
    "heldout207": "dev207 (seen; was heldout207)",
    "heldout213": "dev213 (seen; was heldout213)",
    "heldout215": "dev215 (seen; was heldout215)",
    "heldout216": "dev216 (seen; was heldout216)",
    "heldout218": "dev218 (seen; was heldout218)",
    "heldout222": "dev222 (seen; was heldout222)",
    "heldout228": "dev228 (seen; was heldout228)",
    "heldout248": "dev248 (seen; was heldout248)",
    "heldout195": "dev195 (seen; was heldout195)",
    "heldout255": "dev255 (seen; was heldout255)",
    "heldout261": "dev261 (seen; was heldout261)",
    "heldout275": "dev275 (seen; was heldout275)",
    "heldout278": "dev278 (seen; was heldout278)",
    "heldout280": "dev280 (seen; was heldout280)",
    "heldout299": "dev299 (seen; was heldout299)",
    "heldout300": "dev300 (seen; was heldout300)",
    "heldout191": "dev191 (seen; was heldout191)",
    "heldout196": "dev196 (seen; was heldout196)",
    "heldout168": "dev168 (seen; was heldout168)",
    "heldout202": "dev202 (seen; was heldout202)",
    "heldout291": "dev291 (seen; was heldout291)",
    "heldout344": "dev344 (seen; was heldout344)",
    "heldout385": "dev385 (seen; was heldout385)",
    "heldout400": "dev400 (seen; was heldout400)",
    "heldout405": "dev405 (seen; was heldout405)",
    "heldout409": "dev409 (seen; was heldout409)",
    "heldout410": "dev410 (seen; was heldout410)",
    "heldout411": "dev411 (seen; was heldout411)",
    "heldout413": "dev413 (seen; was heldout413)",
    "heldout415": "dev415 (seen; was heldout415)",
    "heldout414": "dev414 (seen; was heldout414)",
    "heldout418": "dev418 (seen; was heldout418)",
    "judged1": "judged1 (seen)",
}


@dataclass
class Figures:
    """What the heuristic proposed on one body of text, judged against the labels."""

    name: str
    prompts: int = 0
    durable: int = 0
    maybe: int = 0
    proposals: list[str] = field(default_factory=list)  # descriptions, for the report
    kept: int = 0
    durable_found: int = 0
    durable_said_again: int = 0  # not quoted, but saying a proposed rule word for word (ADR 0113)
    missed: list[str] = field(default_factory=list)
    judged: bool = False  # a judged split (ADR 0066): only the judge's sample of prompts has labels
    unjudged: int = 0  # proposals quoting a prompt the judge never saw: counted in no figure

    @property
    def precision(self) -> float | None:
        judged = len(self.proposals) - self.unjudged
        return self.kept / judged if judged else None

    @property
    def recall(self) -> float | None:
        found = self.durable_found + self.durable_said_again
        return found / self.durable if self.durable and not self.judged else None


def _split_data(name: str, folder: Path = LABELLED) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
    return data


def load_split(name: str, folder: Path = LABELLED) -> tuple[Transcript, dict[str, str]]:
    """The split as one transcript (one session per source session) and each turn's label."""
    return _transcript_of(name, _split_data(name, folder))


def _transcript_of(name: str, data: dict[str, Any]) -> tuple[Transcript, dict[str, str]]:
    turns: list[Turn] = []
    labels: dict[str, str] = {}
    for source in data["sessions"]:
        per_prompt = source.get("sessions")
        for number, prompt in enumerate(source["prompts"]):
            turn_id = f"{source['session']}:{number}"
            session = per_prompt[number] if per_prompt else source["session"]
            turns.append(
                Turn(
                    turn_id=turn_id,
                    role="user",
                    source="user",
                    text=prompt["text"],
                    index=len(turns),
                    session_id=session_key(session),  # as the product's readers give it (a SpecStory title may not be)
                )
            )
            labels[turn_id] = prompt["label"]
    return Transcript(session_id=f"labelled-{name}", format="text", turns=turns), labels


def rule_passages(name: str, folder: Path = LABELLED) -> dict[str, list[str]]:
    """Per turn, the passages of a long prompt that are its rule (``keep``), where the label names them."""
    return _passages_of(_split_data(name, folder))


def _passages_of(data: dict[str, Any]) -> dict[str, list[str]]:
    passages: dict[str, list[str]] = {}
    for source in data["sessions"]:
        for number, prompt in enumerate(source["prompts"]):
            if prompt.get("keep"):
                passages[f"{source['session']}:{number}"] = list(prompt["keep"])
    return passages


def proposals_of(transcript: Transcript) -> list[PlannedProposal]:
    """What a reviewer would see from this transcript with empty stores."""
    return plan(extract(transcript), approved=[], pending=[], discarded=[]).proposals


def evaluate_split(
    name: str, folder: Path = LABELLED, proposals: Callable[[Transcript], list[PlannedProposal]] = proposals_of
) -> Figures:
    """Precision and recall on one labelled split (precision only on a judged one), of the heuristic unless
    ``proposals`` names another extractor (``tools.model_eval``)."""
    data = _split_data(name, folder)  # read once: a judged split holds a whole history
    transcript, labels = _transcript_of(name, data)
    passages = _passages_of(data)
    figures = Figures(name=ROLES.get(name, name), prompts=len(labels), judged=bool(data.get("judged")))
    figures.durable = sum(1 for label in labels.values() if label == "durable")
    figures.maybe = sum(1 for label in labels.values() if label == "maybe")

    def worth_keeping(turn_id: str, quote: str) -> bool:
        rule = passages.get(turn_id)
        in_rule = not rule or any(part in quote or quote in part for part in rule)
        return labels.get(turn_id, "one-off") in KEEP and in_rule

    covered: set[str] = set()
    rules: set[str] = set()  # the quotes of the proposals' rules, as a reviewer would keep them
    for planned in proposals(transcript):
        evidence = planned.proposal.evidence
        figures.proposals.append(planned.proposal.memory.description)
        figures.unjudged += labels[str(evidence[0].turn_id)] == UNJUDGED
        figures.kept += worth_keeping(str(evidence[0].turn_id), evidence[0].quote)
        kept = [e for e in evidence if worth_keeping(str(e.turn_id), e.quote)]
        covered.update(str(e.turn_id) for e in kept)
        rules.update(plain(e.quote) for e in kept)
    for turn in transcript.turns:
        if labels[turn.turn_id] == "durable":
            if turn.turn_id in covered:
                figures.durable_found += 1
            elif says_again(plain(turn.text), [plain(part) for part in passages.get(turn.turn_id, [])], rules):
                figures.durable_said_again += 1
            else:
                figures.missed.append(turn.text)
    return figures


def plain(text: str) -> str:
    return " ".join(text.split()).casefold()


def says_again(text: str, passages: list[str], rules: set[str]) -> bool:
    """A durable prompt that says a proposed rule word for word (in its rule's passage, where the label names one).

    Its rule is found though no quote names this prompt: a proposal shows only a few quotes, and a rule said in
    twenty sessions is one proposal (ADR 0113)."""
    return any(
        rule in text and (not passages or any(rule in part or part in rule for part in passages))
        for rule in rules
        if rule
    )


def shared_data_dir() -> Path:
    """The shared real data (``MEMORY_REVIEW_TEST_DATA``, else ``../shared/data`` next to the repo)."""
    default = REPO.parent / "shared" / "data"
    return Path(os.environ.get("MEMORY_REVIEW_TEST_DATA", default)).resolve()


def real_transcript_files(data: Path) -> list[Path]:
    """Every real transcript in the shared data (JSON and JSONL files under ``transcripts/``)."""
    root = data / "transcripts"
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in {".jsonl", ".json"})


def evaluate_shared(data: Path) -> Figures:
    """Proposals on the unlabelled real sessions: none of them is a durable statement."""
    figures = Figures(name="shared data")
    for path in real_transcript_files(data):
        transcript = read_transcript(path)
        figures.prompts += len(transcript.user_turns())
        figures.proposals.extend(p.proposal.memory.description for p in proposals_of(transcript))
    return figures


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0%}"


def _proposals(f: Figures) -> str:
    return f"{len(f.proposals)} ({f.unjudged} unjudged)" if f.unjudged else str(len(f.proposals))


def _found(f: Figures) -> str:
    again = f" (+{f.durable_said_again} said again)" if f.durable_said_again else ""
    return f"{f.durable_found} of {f.durable} judged" if f.judged else f"{f.durable_found}{again} of {f.durable}"


def table(rows: list[Figures]) -> str:
    """The figures as a Markdown table."""
    lines = [
        "| set | user prompts | durable / maybe | proposals | worth keeping | precision | durable found | recall |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for f in rows:
        lines.append(
            f"| {f.name} | {f.prompts} | {f.durable} / {f.maybe} | {_proposals(f)} | {f.kept} | "
            f"{_fmt(f.precision)} | {_found(f)} | {_fmt(f.recall)} |"
        )
    return "\n".join(lines)


def report(rows: list[Figures]) -> str:
    """The table plus what was proposed and what was missed, per set."""
    parts = [table(rows)]
    for f in rows:
        if f.proposals:
            parts.append(f"\nProposed on {f.name}:\n" + "\n".join(f"- {d}" for d in f.proposals))
        if f.missed:
            parts.append(f"\nMissed on {f.name}:\n" + "\n".join(f"- {t[:160]!r}" for t in f.missed))
    return "\n".join(parts)


DOC_HEAD = """# Extraction: what the heuristic proposes, measured on real histories

`python -m tools.extraction_eval --write docs/extraction.md` writes this page; the tables below are its
output, and `tests/memory_review/extract/test_extract_labelled.py` checks they are current.

## The labelled set

Real user prompts from public coding-agent histories (sources, licences and how each was cut in
`tests/memory_review/extract/labelled/README.md`; the labellers' brief in `LABELLING.md` beside it). Every prompt is
labelled by hand: **durable** (a reviewer would keep it, and the extractor must find it), **maybe** (a reviewer could
keep it: proposing it is no mistake, missing it is no fault) or **one-off**. A proposal is *worth keeping* when the
prompt its first quote comes from is durable or maybe (for a long prompt whose label names the passages that are its
rule, the quote must hold or be part of one of them); a durable prompt is *found* when a proposal quotes it so, or
when it says word for word the rule of a proposal worth keeping ("said again": a proposal shows only a few quotes, and a
rule said in twenty sessions is one proposal; ADR 0113).

- *dev* and *heldout* (ADR 0033): Claude Code sessions saved by Entire's checkpoints and aider
  `.aider.chat.history.md` files, 88 prompts, one clearly durable rule (81 prompts since session 34's licence audit).
- *dev2* and *heldout2* (ADR 0044): prompt histories that Claude Code (`~/.claude/history.jsonl`) and
  Codex CLI (`~/.codex/history.jsonl`) keep, committed in eight people's public repositories (mostly
  dotfiles): whole stretches as they come, in English, Chinese, French and Italian, 434 prompts with 19
  durable rules. *heldout2* was labelled and committed (9cf97fa) before the heuristic was first run on it.
  Both removed in session 34: none of the eight repositories has a licence in the index.
- *heldout3* (ADR 0044): three more people's prompt histories, 122 prompts with 3 durable rules, labelled
  and committed (def5c25) after held-out 2 was measured and before the heuristic was run on it; 33 prompts (one
  person's) since session 34's licence audit.
- *heldout4* (ADR 0049): a fresh held-out split for the second round, six more people's Codex CLI and Claude
  Code prompt histories (165 prompts, 2 durable rules and 12 maybe; English and Chinese, much of it spec-kit
  commands), all from MIT-licensed repositories, labelled and committed (2b60960) before any heuristic was
  run on it. *dev3* (ADR 0049): two more people's Codex histories (29 prompts, 1 durable rule), committed
  after it (6b4ffb1) and used with dev and dev 2 to tune the second round.
- *heldout5* (ADR 0049): a bigger fresh held-out split for the frozen second round (4be812b): three more
  people's Claude Code and Codex CLI prompt histories (363 prompts, 8 durable rules and 16 maybe), all from
  MIT-licensed repositories, labelled by hand and landed (b4ab72f) before any heuristic ran on it.
- *heldout6* (ADR 0054, "Held-out 6"): a fresh held-out split for the frozen third round (4501c0a): two more
  people's aider histories (39 prompts, 2 durable rules and 1 maybe), from an Apache-2.0 and a
  do-whatever-you-want licensed repository, labelled by hand and landed (1b74601) before any heuristic ran on it.
- *heldout7*, *heldout8* and *heldout9* (ADR 0057, "Held-out 7, 8 and 9"): fresh held-out splits for the frozen
  fourth round (52bcc4c), 481 prompts from thirteen more people: aider chat histories (held-out 7, six people,
  145 prompts, MIT), SpecStory exports of Copilot and Cursor chats (held-out 8, three people, 155 prompts, MIT)
  and Claude Code prompt histories (held-out 9, four people, 181 prompts; Apache-2.0, BSD-2-Clause, MIT), with
  3 durable rules and 65 maybe between them, each labelled by hand and landed (7217d05, e5e00af, 7232a92)
  before any heuristic ran on it.
- *heldout10* (ADR 0058, "Held-out 10"): a fresh held-out split for the frozen fifth round (8733133): 164
  prompts, 32 from seven more people's SpecStory exports (Claude Code, Cursor, Codex; MIT and Apache-2.0) and 132
  from a later stretch of held-out 9's person's Claude Code history that no round read (2 durable rules and 25
  maybe), labelled by hand and landed (9cae5d7) before any heuristic ran on it.
- *heldout11* (ADR 0059, "Held-out 11"): a fresh held-out split for the frozen sixth round (11fa775): 172 prompts
  from one more person's aider history (aider's author's own, kept as a test fixture in aider-chat 0.86.2's source
  distribution on PyPI, Apache-2.0; 0 durable rules, 2 maybe), labelled by hand and landed (abaec8a) before any
  heuristic ran on it.
- *heldout12*, *heldout13* and *heldout14* (ADR 0062): fresh held-out splits for the frozen sixth round (11fa775)
  and, held-out 14, the seventh (bdd79cc): 397 prompts from sixteen more people, SpecStory exports of Cursor, Copilot
  and Codex chats (held-out 12, five people, 124 prompts; held-out 14, five people, 122 prompts) and Claude Code and
  Codex CLI prompt histories (held-out 13, six people, 151 prompts), MIT and Apache-2.0, with 3 durable rules and 60
  maybe between them, each labelled by hand and landed (9b47f49, bc1cacb, 3dd659b) before any heuristic ran on it.
- *heldout15* and *heldout16* (ADR 0063): fresh held-out splits for the frozen eighth round (1c19f80): a later
  stretch of held-out 12's Houdoku-2 person that no round read (held-out 15, 52 prompts; not new people) and four more
  people's Codex CLI prompt histories (held-out 16, 174 prompts; English, French, Ukrainian, spec-kit), MIT, with 2
  durable rules and 55 maybe between them, each labelled by hand and landed (9d4c778, 77f49e3) before any heuristic
  ran on it.
- *heldout19* (ADR 0063, "Held-out 19"): a third fresh split for the frozen eighth round: one more person's SpecStory
  exports of eight days of Cursor chats (twardoch/twat-search, MIT, read from the package's sdist on PyPI; 166
  prompts, 5 durable rules and 21 maybe), labelled by hand and landed before any heuristic ran on it.
- *heldout20*, *heldout21* and *heldout22* (ADR 0065): fresh held-out splits for the frozen ninth (5b8760f) and tenth
  (d32e8f4) rounds, 477 prompts from twelve more people: SpecStory exports of Cursor, Copilot, Claude Code and Codex
  chats (held-out 20, seven people, 180 prompts), Codex CLI prompt histories in French and Chinese and a Gemini CLI log
  (held-out 21, three people, 275 prompts) and Claude Code transcripts (held-out 22, three people, 22 prompts; one of
  them also in held-out 21), MIT and Apache-2.0, with 2 durable rules and 34 maybe between them, each labelled by hand
  by engineers who never ran the heuristic and landed (5722d9e, 153437a, ec2b45e) after the tenth round was frozen.
- *heldout23* (ADR 0065): later stretches of four of those people's histories that no round had read (test-framework's
  and Text-Adventure-Game's Codex histories, BlastMerge's SpecStory chats past what held-out 20 took,
  my-jarvis-desktop's other transcripts), 188 prompts, 0 durable and 19 maybe, labelled apart and landed (c6b3a2a)
  after both rounds were frozen; fresh text, not new people.
- *heldout24* (ADR 0066): one more person's Codex CLI session rollouts (7kim/PAOS, MIT), 4 prompts, 3 of them sent by a
  setup helper that wraps the person's words in its own status report; no durable rule, no maybe; labelled by hand and
  landed (f71a3dc) after the tenth round was frozen. The search index's sources are close to used up: of about 130
  repositories checked, this was the one with a licence and a prompt.
- *heldout25* and *heldout26* (ADR 0067): fresh held-out splits for the frozen tenth (2ff9679) and eleventh (5bf7efd)
  rounds, 340 prompts from nine more people: Claude Code prompt histories, four of them the history Claude Code 1.0
  kept in `~/.claude.json` (held-out 25, five people, 279 prompts, 6 durable and 32 maybe) and SpecStory exports of
  Cursor chats (held-out 26, four people, 61 prompts, 1 durable and 16 maybe), MIT, each labelled by hand by engineers
  who never ran the heuristic and landed (22db183, 31ecc97) after the eleventh round was frozen.
- *heldout27* and *heldout28* (ADR 0067): 363 more fresh prompts for the same two frozen rounds: one more person's
  Claude Code history kept in `~/.claude.json` (Japanese) and one's two-prompt history (held-out 27, 92 prompts, 2
  durable and 8 maybe), and later stretches of four people already in held-out 23, 25 and 26 that no round had read
  (held-out 28, 271 prompts, 13 durable and 11 maybe: one person's scope rules pasted at the start of session after
  session, another's "use the PRD at …" in three sessions), MIT, labelled apart and landed (47612d2, 5718a80) after
  the eleventh round was frozen. Held-out 27's labeller read the format test's file, which names some kinds the
  heuristic holds back, after every label was chosen (its README section says so).
- *heldout29* (ADR 0067): later stretches of three people already in held-out 26 and 27 and one in held-out 21 and 23,
  238 prompts (Japanese, Chinese, English; 3 durable and 14 maybe), MIT, labelled apart and landed (e5cdd82) after the
  eleventh round was frozen; fresh text, not new people.
- *heldout30* (ADR 0068): later stretches of three people already in held-out 25 to 29 (Japanese, English, French),
  103 prompts, no durable rule and 4 maybe, MIT, labelled apart and landed (fc5e8e9) after the twelfth round was
  frozen; fresh text, not new people.
- *judged1* (ADR 0066, a **judged** split): aider's author's own history (the aider-chat 0.86.2 sdist's test fixture,
  Apache-2.0) but held-out 11's stretch, 740 prompts read by the product's own aider reader, every prompt `unjudged`
  but the frozen tenth round's proposals and 4 decoys per proposal, judged blind by two judges who never read the
  heuristic (the stricter label per prompt). Precision only: its recall is n/a.

The *dev* splits were used to tune the heuristic; the *held-out* splits are not tuned on. Held-out 4 and 5
were tuned on by the third round (ADR 0054): from then on their rows read *dev4* and *dev5* (seen), and
their figures are no longer a measurement. Held-out 6 was tuned on by the fourth round (ADR 0057): its row reads
*dev6* (seen). Held-out 7, 8 and 9 were tuned on by the fifth round (ADR 0058): their rows read *dev7*, *dev8* and
*dev9* (seen). Held-out 10 was tuned on by the sixth round (ADR 0059): its row reads *dev10* (seen), and no row on
this page is a measurement any more; held-out 11 measures the sixth round. Held-out 12, 13 and 14 measured the
sixth round and held-out 14 the seventh (ADR 0062), then the seventh and eighth rounds tuned on them (ADR 0062,
0063): their rows read *dev12*, *dev13* and *dev14* (seen); held-out 15, 16 and 19 measured the eighth round, and the
ninth (ADR 0064) tuned on held-out 19: its row reads *dev19* (seen). No split on this page measures the ninth round:
held-out 15 and 16's eighth-round results were read before it was written. The tenth (ADR 0065) took one of held-out
15's rules as an example: its row reads *dev15* (seen). Held-out 20 to 23 measure the ninth and tenth rounds,
held-out 24 and judged 1 the tenth; the eleventh (ADR 0067) tuned on those two, whose rows read *dev24* and *judged1*
(seen). Held-out 25 to 29 measure the tenth and eleventh rounds; the twelfth (ADR 0068) tuned on the Japanese
prompts of held-out 20, 27 and 29, whose rows read *dev20*, *dev27* and *dev29* (seen). Held-out 30 measures the
eleventh and twelfth rounds. The thirteenth (ADR 0069) tuned on held-out 25, 28 and 29, whose rows read *dev25*,
*dev28* and *dev29* (seen). Held-out 31 and 32 measure the twelfth and thirteenth rounds; the fourteenth (ADR 0070)
tuned on them, whose rows read *dev31* and *dev32* (seen). Held-out 33 to 36 measure the twelfth, thirteenth and
fourteenth rounds; the fifteenth (ADR 0071) tuned on held-out 35 and 36, whose rows read *dev35* and *dev36* (seen).
Held-out 37 and 38 measure the twelfth to fifteenth rounds. The sixteenth (ADR 0073) tuned on seen splits only.
Held-out 40 measured the fifteenth and sixteenth rounds; the seventeenth (ADR 0074) tuned on it, whose row reads *dev40*
(seen). Held-out 39, 41 and 42 measure the fifteenth to seventeenth rounds; the eighteenth (ADR 0075) tuned on held-out
42, whose row reads *dev42* (seen). Held-out 43 and 44 measure the fifteenth to eighteenth rounds; the nineteenth (ADR
0076) tuned on held-out 43, whose row reads *dev43* (seen). Held-out 45 and 46 measure the fifteenth to nineteenth
rounds. Held-out 47 to 56 are prompt logs people keep in their repositories, by hand or by asking their agent to write
each prompt down. Held-out 47 to 51 measure the nineteenth round; the twentieth (ADR 0077) tuned on held-out 48 and 51,
whose rows read *dev48* and *dev51* (seen). Held-out 52 to 54 measure the nineteenth and twentieth rounds; the
twenty-first (ADR 0078) tuned on held-out 52, whose row reads *dev52* (seen). Held-out 55 and 56 measure the
nineteenth to twenty-first rounds. The twenty-second (ADR 0081) tuned on held-out 48, already seen; the twenty-third
(ADR 0082) on held-out 53, whose row reads *dev53* (seen). Held-out 58 to 63 measure the twenty-third round; the
twenty-fourth (ADR 0083) tuned on held-out 60, whose row reads *dev60* (seen). Held-out 57, 64 and 65 measure the
twenty-third and twenty-fourth rounds; the twenty-fifth (ADR 0084) tuned on held-out 57, whose row reads *dev57*
(seen). Held-out 66 to 69 measure the twenty-third to twenty-fifth rounds; the twenty-sixth (ADR 0085) tuned on
held-out 69, whose row reads *dev69* (seen). Held-out 70 measures the twenty-third to twenty-sixth rounds. The
twenty-seventh (ADR 0086) tuned on held-out 66, whose row reads *dev66* (seen); the twenty-eighth (ADR 0087) on
held-out 53 and 69, both already seen. Held-out 71 to 77 measure the twenty-eighth round with the planner's merge
(ADR 0088); the twenty-ninth (ADR 0089) tuned on held-out 72, 75 and 77, whose rows read *dev72*, *dev75* and *dev77*
(seen). Held-out 78 measures the twenty-eighth and twenty-ninth rounds; the thirtieth (ADR 0090) tuned on it, whose row
reads *dev78* (seen). Held-out 79 and 80 measure the twenty-eighth to thirtieth rounds. The thirty-first (ADR 0091)
tuned on held-out 72, already seen. Held-out 81 measures the twenty-eighth to thirty-first rounds. Held-out 82 to
86 measure the thirty-first round; the thirty-second (ADR 0092) tuned on held-out 84 and 85, whose rows read *dev84*
and *dev85* (seen). Held-out 87 to 90 measure the thirty-second round; the thirty-third (ADR 0093) tuned on held-out
87, 88 and 89, whose rows read *dev87*, *dev88* and *dev89* (seen). Held-out 91 and 93 measure the thirty-third
round; the thirty-fourth (ADR 0094) tuned on held-out 93, whose row reads *dev93* (seen). Held-out 92 measures the
thirty-third and thirty-fourth rounds, held-out 94 the thirty-fourth; the thirty-fifth (ADR 0095) tuned on held-out
94, whose row reads *dev94* (seen). Held-out 95 and 96 measure the thirty-fifth round. The thirty-sixth (ADR 0096)
tuned on held-out 92, whose row reads *dev92* (seen), and on 31 and 84, already seen. Held-out 97 to 103 measure the
thirty-fifth and thirty-sixth rounds; the thirty-seventh (ADR 0097) tuned on held-out 98, whose row reads *dev98*
(seen), the thirty-eighth (ADR 0098) on held-out 102, whose row reads *dev102* (seen). Held-out 104 and 105 measure
the thirty-sixth and thirty-seventh rounds, held-out 106 and 107 the thirty-seventh and thirty-eighth; the
thirty-ninth (ADR 0099) tuned on held-out 106, whose row reads *dev106* (seen). Held-out 109 and 110 measure the
thirty-eighth and thirty-ninth rounds; the fortieth (ADR 0100) tuned on held-out 109, whose row reads *dev109* (seen).
Held-out 111 and 112 measure the thirty-ninth and fortieth rounds; the forty-first (ADR 0101) tuned on both, whose
rows read *dev111* and *dev112* (seen). Held-out 113 measures the fortieth and forty-first rounds, held-out 114 the
forty-first with its review mends. Held-out 116, 117, 119 and 121 measure the forty-first and forty-second rounds
(ADR 0102, tuned on *dev111*); the forty-third (ADR 0103) tuned on 116, 117 and 121, whose rows read *dev116*,
*dev117* and *dev121* (seen). Held-out 115, 118 and 120 measure the forty-first to forty-third; the forty-fourth (ADR
0104) tuned on 115 and 118, whose rows read *dev115* and *dev118* (seen). Held-out 122, 123 and 124 measure the
forty-third and forty-fourth; the forty-fifth (ADR 0105) tuned on 122, whose row reads *dev122* (seen). Held-out 125
to 128, 130 and 131 measure the forty-fourth and forty-fifth (held-out 129's lane found no licensed prompt); the
forty-sixth (ADR 0107) tuned on 123 and 128, whose rows read *dev123* and *dev128* (seen). Held-out 132, 133 and 135
to 137 measure the forty-fifth and forty-sixth (held-out 134's lane found no licensed prompt); the forty-seventh (ADR
0108) tuned on 137, whose row reads *dev137* (seen). Held-out 139 to 142 measure the forty-sixth and forty-seventh
(held-out 138's lane found no licensed Roo Code export); the forty-eighth (ADR 0109) tuned on 140, whose row reads
*dev140* (seen). Held-out 143 and 144 measure the forty-seventh and forty-eighth.
The shared real Claude Code sessions (the *shared data* row, read from `MEMORY_REVIEW_TEST_DATA`, never copied
here) hold no durable statement: any proposal there is a mistake.

## Figures

"""

DOC_TAIL = """

## Reading the figures

- **Session 36's fresh record (round 95's first version, frozen at fd7b04c3 before the lanes began and withdrawn after,
  for held-out 427 and 428): no proposal; 0 of 1 rule found.** Four scouts (about 400 look-ups over non-English file
  names, Gemini CLI `/chat share` exports and people's own prompt logs) found two licensed new people, both small:
  Rashomon-Chinglo/novel_studio (MIT), one Gemini CLI session in which he learns pytest from the agent in Chinese
  (held-out 427: 28 prompts, 0 durable, 3 maybe; 45 preamble, editor-context and tool-response turns left out), and
  ihxw/TermiScope (Apache-2.0), the owner's own prompt log in Chinese (held-out 428: 10 prompts, 1 durable, 1 maybe; the
  index names one of its 13 versions). Missed:
  "这是一个工具类应用，尽量使用紧凑布局，更多的展示数据" (a utility app: compact layouts, more data shown), said once
  inside a request to restyle the mobile client. Since the hold of ADR 0059 unchanged: 121 of 213 (57%); durable found
  when first measured 24% (77 quoted + 34 said again of 460).
- **Session 35's third fresh record (rounds 93 and 94 after both reviews' mends, the code at a74e7ecd before the lanes
  began, for held-out 423, 425 and 426): no proposal; no durable rule in them.** Four lanes read the last unread pages
  of the Windsurf exports (50 prompts, 0 durable, 7 maybe; most pages repeated conversations already taken: 31 prompts
  left out as repeats). One lane's two prompts were held-out 423's first two (the same conversation exported twice); its
  split (424) was not merged and its labels, maybe where 423's lane had one-off, were taken into held-out 423 before any
  heuristic ran. The exports of ltlgrnaiml/ai-coding-manager are read to their ends but for `Formalizing Umbrella
  DISCs.md` past 32,000, a repeat of held-out 400, 411 and 414's conversation. Since the hold of ADR 0059 unchanged: 121
  of 213 (57%); durable found when first measured 24% (77 quoted + 34 said again of 459).
- **Session 35's second fresh record (round 93's heuristic, frozen at fa89edff before its lanes began, for held-out 417
  to 422): 1 proposal, worth keeping; 0 of 6 rules found.** Five lanes read the last pages of the same Windsurf exports
  (held-out 417 to 421, 52 prompts after a cross-lane check left out 11 of 421's as word-for-word held-out 418's, with
  the same labels; 69 more prompts of 421's stretch repeated earlier splits), and a scout's licence-first pass over a
  new file family (`AI_TRANSCRIPT.md`, root `TRANSCRIPT.md`: mostly unlicensed take-homes) found a new person,
  ShovalBenjer/verdict-bench (MIT), whose one Claude Code session export gave held-out 422 (39 prompts, 2 durable, 7
  maybe; 37 hook-, tool- and CLI-generated turns left out). Worth keeping: his commit-message wish (a maybe, held-out
  420). Missed: his solo-dev memory "ALL DEV WORK MUST USE THIS ETHOS", his greenfield / solo-dev reminder inside a
  request on the FSM model, code that must run on every OS and shell, his "EVERYTHING gets graded" inside a request for
  a chat summary, and verdict-bench's "ensure we dont pile up docs or specs md files" and no labels on generated output
  that "feels claude generic". Since the hold of ADR 0059: 121 of 213 worth keeping (57%; `tools.fresh_record` 120 of
  205, 59%); all frozen rounds 128 of 242 (53%); durable found when first measured 24% (77 quoted + 34 said again of
  459).
- **Session 35's first fresh record (round 92's heuristic, unchanged since c024ba45, at 7d368e40 where the lanes began,
  for held-out 410 to 416): no proposal; 0 of 10 rules found.** Seven lanes read the pages of
  ltlgrnaiml/ai-coding-manager's Windsurf exports that no split had reached (164 prompts, 10 durable, 31 maybe; two
  "Continue" go-aheads left out as repeats). Missed: his style note on panels and tabs, his GPU policy ("our backend
  MUST be GPU enabled where ever possible", "As Policy GPU EVERYWHERE possible with robust fallbacks."), research papers
  as a standalone feature, his rule on logging the discussion that starts a change, "We are greenfield and do not shy
  from breaking changes", "I want to keep things orthongonal and single responsibility wehre possible", "please REMEMBER
  we are running on docker containers as our PRIMARY method", his "AUTO EVERYTHING WE CAN FOR DOCS!" tenet, the line
  limit on plan documents and his non-negotiable full citations of papers. Round 93 (below) was tuned on some of these.
  Fresh record since the hold of ADR 0059 unchanged: 120 of 212 (57%); durable found when first measured 25% (77 quoted
  + 34 said again of 453).
- **Session 34's fresh record (round 90's heuristic, unchanged since d06a00e5, at a3b4e00e where the lanes began, for
  held-out 405; round 91's, at 30d9f8fc, for held-out 408; round 92's, at 4bb889bf, for held-out 409): 2 proposals, none
  worth keeping; 0 of 3 rules found.** Held-out 408 (a later lane: the pages of the same exports no lane had reached, 42
  prompts, 0 durable, 10 maybe) gave no proposal; held-out 409 (the later pages of the long exports, 34 prompts, 0
  durable, 9 maybe) gave 1, not worth keeping: "Moving forward through the wizard I arrived successfully at the Preview
  step …" (a walk through the app's steps read as the standing "moving forward"). One lane read the rest of the Windsurf
  exports of ltlgrnaiml/ai-coding-manager (the second page of file 29, then files 43 to 56: 60 prompts, 3 durable, 18
  maybe; 8 prompts left out as conversations held-out 400 and 401 already took). The mistake: "Next I need you to
  re-evaluate our documetation and the SPROMPT template, … come up with three enhancements to the SPROMPT that will
  improve the output next time." (a task's purpose read as "from now on"). Missed: "… make sure the AI Coding Manager
  name is thoroughly implemented as the long form name for AICM …", "From here forward in this repo we will refer to all
  existing archived docs and the working code … as v0 …" and "Any time we reference a possible cross-over of topics you
  MUST pick up on the other DISC and notify the User". Two more lanes read later pages of fjung's Antigravity exports,
  and one of their labellers found that fjungplan/chainlines' text is AGPL-3.0 at the commits read (Apache-2.0 only at
  an earlier commit): those two lanes were not merged, and held-out 397, 398, 399, 402 and 403 were removed (673
  prompts; when first measured 10 proposals, 3 worth keeping, 0 of 12 rules found). A scout found no other licensed new
  person. A licence audit of every source followed (the labelled README's "Session 34's licence audit"): the text of 13
  repositories with no licence in the index (all of dev 2 and held-out 2, most of held-out 3, 7 prompts of dev and
  held-out), of one whose licence is CC BY-NC-SA 4.0 at the text's commit (61 of held-out 159's prompts) and of one with
  a proprietary licence stored beside the MIT one recorded (2 of held-out 367's) was removed too; none of these gave a
  proposal when first measured since the hold. Without them and with held-out 405, 408 and 409: since the hold of ADR
  0059, 120 of 212 worth keeping (57%; `tools.fresh_record` 119 of 204, 58%); all frozen rounds 127 of 241 (53%);
  durable found when first measured 25% (77 quoted + 34 said again of 443).
- **Session 33's third fresh record (round 90's heuristic, at 30836895 where the lanes began, for held-out 402 to 404):
  4 proposals, 1 worth keeping; 0 of 3 rules found.** Three more lanes on the same two people's exports: fjung's
  Antigravity exports (held-out 402, 147 prompts, and 403, 137 prompts; both removed in session 34, below) and 14 more
  of the Windsurf exports (404, 31 prompts, 1 durable, 4 maybe; 36 prompts left out as the same conversation exported
  again). Worth keeping: one test-first wish (a maybe). Mistakes, all in held-out 403 and all the specification of the
  site he builds, worded as rules (three sentences). Missed: fjung's prohibition on scraping one site "for legal
  reasons" and his rule on failing tests, and the Windsurf developer's rule on ADR status during development. Fresh
  record since the hold of ADR 0059 as it stood then: 123 of 220 (56%).
- **Session 33's second fresh record (round 89's heuristic, unchanged since c77fc66, at d6fd0fd4 where the lanes began,
  for held-out 397 to 401): 10 proposals, 2 worth keeping (20%); 0 of 19 rules found.** A scout found a file family no
  split had used, Windsurf Cascade and Google Antigravity chat exports (`### User Input` / `### Planner Response`), and
  two people who commit them: fjung's Antigravity exports of his cycling-team lineage site (held-out 397 to 399, 389
  prompts, 10 durable, 62 maybe; removed in session 34: the text turned out to be AGPL-3.0, below) and a solo
  developer's Windsurf exports of his AI Coding Manager (ltlgrnaiml/ai-coding-manager, MIT; held-out 400 and 401, the
  first two pages of 28, 131 prompts, 9 durable, 24 maybe; six prompts 401 shared word for word with 400's copy of one
  conversation left out at the merge). Worth keeping: two of fjung's wishes (maybes). Mistakes: three of fjung's (his
  one-question-at-a-time directive said again, which the labeller kept in its other wording; "always" in a purpose
  clause; "always" in a condition), one choice for one layout in held-out 399, "Q4 - Present all options to the user
  and record feedback to improve decisions next time around" (an answer to the agent's design question), and three
  sentences of a statement pasted below "Please read the statement below and see if this agrees with our DISC or ADR or
  SPEC" ("In enterprise-grade stuff, we always include a NOTICE file …", "… Always check the source's license first
  …", "… always vet and cite origins."). Missed: eleven of fjung's rules (no coloured buttons, not running the UI agent
  tests all the time, following his two instruction files, said in six sessions, never using one site, test first …),
  his role preamble ("… code that is ruff linted and ruff formatted, full google doc-strings …", three sessions), "ADRs
  should be orthogonal from each other", "I am a solo-dev, and currently we are greenfield …" and four about the AI
  Coding Manager's naming conventions. Fresh record since the hold of ADR 0059 as it stood then: 122 of 216 (56%).
- **Session 33's fresh record (round 89's heuristic, unchanged since c77fc66, at 91bf4a6e where the lanes began, for
  held-out 391 to 396): 5 proposals, 5 worth keeping; 0 of 1 rule found.** Six lanes read the rest of Manuel
  Odendahl's ticket diaries the earlier lanes did not reach: geppetto's of 12–13 and 24–28 February (held-out 391,
  392), 18–31 March (393, 394), April and May to the 7th (395), and glazed's of April (396): 83 prompts, 1 durable, 31
  maybe. Many diaries of those months quote no prompt (the agent paraphrased it). All five proposals are his per-ticket
  "commit at appropriate intervals, keep a diary" (maybes): one person's directive said again ticket after ticket,
  which each split counts once. Missed: "store all your scripts and test programs in the scripts/ folder of the ticket
  (…) so that we can retrace your steps", said with no standing word. Fresh record since the hold of ADR 0059: 120 of
  206 (58%).
- **Session 32's fresh record (round 88's heuristic, unchanged since f7f196c, at a1fda64 and 7315381 where the lanes
  began, for held-out 381 to 386; round 89 at c77fc66 for 387 to 390): 14 proposals, 12 worth keeping (86%); 4 of 25
  rules found (16%).** Two new sources, found by a scout this session: an agent-kept prompt log that quotes each prompt
  (`prompt.log`, then `### Prompt N` blocks the agent says are verbatim) in Daniel Schimpfoessl's
  jinja2-template-processor, read whole in two lanes (held-out 381 and 382, 430 prompts, 21 durable, 22 maybe), and
  Wolfgang Schoenberger's hook logs under his own account wolfiesch (fgp-cli, fgp-daemon, fgp-github, fgp-fly; held-out
  383, 39 prompts, no rule). Worth keeping: "add this to your instructions too going forward", "… make sure we always
  capture the prompts, change log and tag features - add this to the Claude.md", "never use rlinks for this project,
  ever!!!" and "My design principle (add that to Claude.md) is to reduce lines of code …" (all found). The mistake: "do
  not commit anything until reviewed" (a one-off for that change). The misses include rules whose standing word comes
  last or after them: "update the prompt log, always, don't ask me …", "update the change log in the app too!! …
  always", "update the prompt.log (should always be done without extra step!)", "… do not track collateral creation as
  version changes! remember this.", "less is more, I prefer concise solutions, remember this too …", "… in general no
  popup dialogs/alerts in browsers"; and rules with none ("There should be no secrets stored in the clusterfile", "You
  are behind a firewall, do not change ports on the server …"). A second scout found a third: the ticket diaries Manuel
  Odendahl's coding agents keep in his go-go-golems repositories, each step quoting his prompt (`**User prompt
  (verbatim):**`), in geppetto (held-out 384, February 2026, and 386, March) and glazed (385): 66 prompts, 4 durable, 30
  maybe, most of the maybes his per-ticket "keep a detailed diary, commit as you go". Three proposals worth keeping, all
  that directive; the mistake "If necessary, you might want to write a go ast tool to do the migration (which is going
  to be very useful moving forward)." (what the tool would be good for, not a rule); missed: "save all scripts you
  write, even temporary ones, in the ticket." and its longer form in glazed, "Run background stuff in tmux, use
  playwright to interact wit hthe page yourself." and "everything should go through glazed fields and stepsettings and
  profiles", all said with no standing word. After round 89 (below), four more lanes read the rest of his geppetto
  diaries of February and March (held-out 387 to 390, 82 prompts, no durable, 33 maybe): 5 proposals, all his diary
  directive, all worth keeping (maybes). Fresh record since the hold of ADR 0059: 115 of 201 (57%).
- **Session 31's fresh record (round 88's heuristic, unchanged since f7f196c, at d4dba75, 199472f1, 8c1f1b90, ea203bb5
  and 55a78f8d where the lanes began, for held-out 362 to 364, 367 to 373, 376, 377, 379 and 380): 1 proposal, worth
  keeping; 0 of 2 rules found.** A new file family, found by a source hunt this session: Claude Code hook logs that a
  popular hooks template writes into the project and people commit by mistake (`logs/user_prompt_submit.json`, each
  entry exactly what the person sent; `logs/chat.json`, the transcript). Fourteen splits, 412 fresh prompts from ten
  people (2 durable, 33 maybe): kesslerio's attio-mcp-server (two versions of his log), Dug McFarlane's linear-agent
  (task-patterns), Conner Ohnesorge's templar (three versions, 285 prompts) and connix, mushfoo's puka, lev-os's
  agentping, Johannes0501's openshrooly, Joshua Oliphant's builderio_skills, David Irvine's sb (three versions),
  Wolfgang Schoenberger's gmail, vercel, calendar and browser gateways and Jeremy Hyde's hestia. The proposal: "avoid
  security tasks", said in two of Conner Ohnesorge's sessions (a weak kind, proposed on the repetition; a maybe). The
  rules missed, both said with no standing word: "Save this to .claude/tickets/ … This will be a living set of tickets
  for now for our development -update yorur memory accoridngly", and "please let's not have any code warnings at all. If
  we've got unused code, remove it." Five lanes made no split: held-out 365 and 366 (of the 54 holders of the log they
  reached, one has a licence file in the index, and its log holds 3 prompts), 374, whose one source declares ISC only as
  `npm init`'s default in a manifest named for another package (not kept), 375 (the rest of a log read, no typed prompt)
  and 378 (templar's log holds nothing past what was taken; its second stretch took what 379 took). Most holders of
  these logs have no licence in the index, and the index lists one version of each log though it stores several. Fresh
  record since the hold of ADR 0059: 103 of 187 (55%).
- **Session 30's fresh record (round 86 at ec8a945 for held-out 349 to 356, round 87 at 0087766 for 357 to 361): no
  proposal; no rule to find.** Ten splits, 22 fresh prompts (0 durable, 1 maybe), all later pages of daviddwlee84's
  exports (mlflow-widgets, dev-cli, translate, lazyclash, lazypueue, lazymlflow, lazyansible, lazyfind, lazypkg), most
  of them go-aheads ("Implement the plan.", "git commit changes") and questions or requests about the tool being built;
  three more lanes made no split (held-out 351: every licensed exp-cli export is read, and his three other licensed
  repositories hold none; 352 and 360: sixteen pages of a Raycast export held only the agent's work). The index holds no
  export of his dev-cli, translate or lazyclash later than those read. His dotfiles repository holds 472 SpecStory
  files, but the index stores no licence file for it and its one manifest (a docs `pyproject.toml`) declares none, so by
  ADR 0148 it is not a source. Fresh record since the hold of ADR 0059: 102 of 186 (55%), unchanged. His exports give
  about one turn of his per 20,000 characters, almost all one-off, so more of them would add little to either half of
  the goal.
- **Session 29's fresh record (the latest frozen round on each split: round 82 at a379729 for held-out 305 to 308, round
  83 at 8e92f5f for 309 to 313, round 84 at 1f5070a and after, its signals later gated to the same matches, for 322 to
  344, round 85 at abb2502 for 345 to 348): 2 proposals, neither worth keeping; 0 of 3 rules found. Fresh record since
  the hold of ADR 0059: 102 of 186 (55%)**; all frozen rounds 109 of 215 (51%). Thirty-three splits, 206 fresh prompts
  (3 durable, 29 maybe), labelled apart in nine batches; eleven more lanes made no split (held-out 314 to 321 found no
  licence file in the index; 343, 345 and 346 no turn of his). The first batches took the last leads of earlier lanes
  (sunnycore's transcripts, DocGen's and nyord-vpn's exports past their first pages, lazycrontab's Codex session to its
  end: held-out 305 to 313, all one-off). The rest is one person, Da-Wei Lee (daviddwlee84), whose Codex and Claude Code
  sessions SpecStory exported into fourteen more of his repositories: the index stores no licence file for them, but his
  own Homebrew formulae declare each one MIT, his mlflow-widgets sdist on PyPI ships his MIT notice, and his Raycast
  extension's package.json says MIT (ADR 0148; held-out 322 to 348). The mistakes were both a git prohibition inside a
  hand-off for one job: "Do not commit or push. Do not reset, stash, clean, or reach into the parent checkout."
  (held-out 323, in a brief that opens "Execute the already approved plan …") and "完成後 commit（不要 push/tag），…"
  (held-out 344, taken by round 85). The misses: his "/init 創建 AGENTS.md … 後續如果有新feature需要更新版本號 …" (rules
  for the AGENTS.md he asks for), "(我認爲如果改的話應該改在上游 …)" and "(根據我的經驗 codebase 最好能夠濃縮成CLI …)":
  rules said once, in passing, with no standing word. A search for more sources found none elsewhere: the PyPI sdists of
  every repository of the 250 owners in the sources table (4,841 repositories, 67 of them published) ship no history.
- **Session 28's fresh record (the latest frozen round on each split: round 77 at 2367e48 for held-out 286 to 294,
  round 79 at 8e891ef for 296 to 298, round 80 at 089c0b6 for 299 to 303, round 81 at 18b2609 for 304): 2 proposals,
  both worth keeping; 1 of 18 rules found. Fresh record since the hold of ADR 0059: 102 of 184 (55%)**; all frozen
  rounds 109 of 213 (51%). Seventeen splits, 238 fresh prompts (18 durable, 24 maybe), labelled apart in five batches:
  the last leads of earlier lanes (later versions of prompt logs, SpecStory exports past their first page, a Codex
  session's later version, Claude Code transcripts of task numbers; held-out 286 to 298), and two people's SpecStory
  exports shipped in package archives on PyPI that no lane had opened (twardoch/nyord-vpn 0.1.0, held-out 299 to 301,
  and its later exports through the index, 302 and 303; daviddwlee84/Quote0 0.2.0, held-out 304), found by listing
  those people's repositories and scanning every sdist version of their packages for histories (about 1,000 archives;
  none of the other packages ships one); two lanes found no new prompt (held-out 287 and 295). Worth keeping: "Keep it
  simple, effective, eyes on the goal!" (a maybe) and "REMEMBER: Whenever there is a problem, the UX flow should offer
  a solution, …" (found). No mistake. The misses: the same person's "Periodically do:" over a fenced block with his dev
  loop, sent in twelve chats (round 81 reads it since), his pasted `<instructions>` brief, and "Claude should be listed
  as co-author (not main author) when Claude commits, …" (no standing word). Rounds 78 to 80 were made from earlier
  fresh mistakes whose fixes had been worded too narrowly, found by trying near paraphrases of them.
- **Session 27's fresh record (the latest frozen round on each split: round 70 at abf1325 for held-out 247 to 253,
  round 72 at 9d513f6 for 255 to 262, round 73 at 9f9d2b8 for 263 to 266, round 75 at 2e4980e and 34c5f34 for 271 to
  278, round 76 at 89423ef for 279 to 282, round 77 at d729c8d for 284): 7 proposals, 2 worth keeping (29%); 1 of 10
  rules found. Fresh record since the hold of ADR 0059: 100 of 182 (55%)**; all frozen rounds 107 of 211 (51%).
  Thirty-two splits, 298 fresh prompts (10 durable, 58 maybe), labelled apart in eight batches, each measured by the
  round frozen before its lane began: the rest of one developer's console diary and Claude Code cloud session file
  (palimondo/BookMinder, now read to their ends; held-out 247 to 266), a conversation written up by the assistant
  (RoshnaOmer/win-hackathon), and later logs in repositories whose licence the sources table already records (SpecStory
  exports of Cursor chats, prompt logs, Claude Code transcripts, Gemini prompt files, a kickoff prompt: held-out 271 to
  284); seven more lanes found no licensed source or no new prompt (held-out 254, 267 to 270, 283 and 285). The
  sources found by file name and by search are spent: the root `CONVERSATION.md`, `AI_CONVERSATION.md`, `VIBE_LOG.md`
  and `codex-log.md` holders that keep a person's typed words have no licence file. Worth keeping: "I am not worried
  about workers running into each other — I have been using the commit your own workload as you go technique …" (a
  maybe) and "Organize project files and make cursor rules file … so our root will always looks clean …" (found). The
  mistakes, each taken by a round after it was seen: two dictated questions after "generally," (round 72), "Remember
  the mapping … when an item is entered in the future." and "…; never with the IMGUI HUD on screen …" (round 76) and "…
  footer (always visible when `onCreateTap` is provided, …)" (round 77): specifications and qualifiers read as rules.
  The misses are this person's rules said inside long dictated prompts, with no rule word ("Persistently Record all
  that's stated in session only …", "I am super allergic when you try to put my... your words into my mouth." before
  round 74, "I would like to reserve pushing decision for myself." before round 75).
- **Session 26's fresh record (the latest frozen round on each split: round 59 at 043f24f for held-out 183 to 196, round
  60 at 784d6ba for 199 to 206, round 62 at 259a756 for 207 to 214, round 63 at 8d4289e for 215 to 222, round 65 at
  37d245a for 223 to 229, round 67 at 98ffdce for 231 to 236, round 70 at 7e9340b for 238 to 245): 21 proposals, 13
  worth keeping (62%); 7 of 43 rules found (16%). Fresh record since the hold of ADR 0059: 98 of 175 (56%)**; all frozen
  rounds 105 of 204 (51%). Fifty-five splits, 1,020 fresh prompts (43 durable, 181 maybe), labelled apart in nine
  batches, each measured by the round frozen before its lane began: nearly all of them one developer's console diary
  (palimondo/BookMinder, Claude Code and Gemini CLI sessions over twenty days and a Claude Code cloud session file),
  with two Spanish Claude Code sessions kept in MostroP2P/mobile, a Streamlit developer's console
  (digital-duck/st_note), a claude-flow run (adrianco/c11s-house-ios) and an agent's write-up of one conversation
  (SoYama350/listing-saas); nine more lanes found no new prompt (a looping aider reply, stretches the terminal
  re-printed, tool output only) or no licensed source. The sources found by name and by search are close to spent, and
  the session's 1,000 look-ups ran out in its last batch. Worth keeping: "Next time I tell you to use command line
  tools, do so.", "# ONE SCENARIO AT A TIME!" (Claude Code's memory shortcut), "… you'll be assuming safely that you're
  gemini-2.5-pro, unless user notifies you …", "But maybe next time reflect more on their core values …", "You are
  should NEVER load the day-0##.md in full …", "Wait, next time on repeated commit failure alert me!" and "From from now
  on, … extra high is our default." (all found), and six maybes, one of them "Please remember that.", a pointer with
  nothing in it that the labels count because the prompt's kept passage holds it (round 65). The last batch, the first
  fresh text round 70 met, gave 3 proposals, all worth keeping. The mistakes: "If yes, that's a total BS and we
  shouldn't commit …" (round 62), "Prepare a task list … and always test the modified script …" (round 63), "So we'll
  learn from this crisis for the next time." (round 64), "Would you remember that, or …?" (round 65), "Copy Extreme
  Programming Explained." (round 66), "… so that we grow this … when we get to that feature in the future" (round 67),
  "For example, in future I like to add new table …" (round 68) and "I'd like to end this day's session and continue
  next time." (round 69). Most misses are this person's rules said once in his own words, often inside a reproach: four
  were dislikes ("I hate all the bla-bla comments …", round 70), the rest carry no rule word ("I want us to be working
  only on one scenario at a time.", "W8, when you are doing exploration of the DB state, use real database, not the
  fixtures.").
- **Session 25's fresh record (the latest frozen round on each split: round 54 at fc517a4 for held-out 167 to 177, round
  57 at c1433b9 for 178, round 58 at 10955fb for 180 and 181, round 59 at e5042d9 for 182): 10 proposals, 5 worth
  keeping (50%); 3 of 18 rules found. Fresh record since the hold of ADR 0059: 85 of 154 (55%)**; all frozen rounds 92
  of 183 (50%). Fourteen splits, 577 fresh prompts (18 durable, 101 maybe), labelled apart in six batches, each measured
  by the round frozen before its lane began: a Claude desktop conversation kept in a repository, prompt logs and chat
  logs found by their file names (`prompts.log`, `CHATLOG.md`, `conversations.md`, `claude-session.md`,
  `chat-transcript.md`), a repository's example prompt log, an aider history and agent-kept prompt logs
  (`docs/PROMPT_LOG.md`), a Copilot chat, a Claude Code conversation export, and one developer's Claude Code console
  diary (palimondo/BookMinder, held-out 173, 178 and 180 to 182: 11 of the 18 rules); two more lanes (held-out 171 and
  179) found nothing new. Worth keeping: "Then in the future, push back when I steer you in a wrong way, always
  explaining what's the purpose." and "I'm unfamiliar with modern Python development practices..." (both found), "Some
  of it is redundant … if you'll be reading these files into LLM context in the future, …" (found), and two maybes. The
  mistakes: "In general analyze the cpgrid-bot and use the best out of it." (round 55), "Remove the word fixture from
  the commit message, as we don't use it anymore." (round 57), "… improve the CLAUDE.md to prevent this type of
  <tdd_discipline> failure in the future." (round 58), and a "never" inside a step of one person's task list, proposed
  twice ("… save as Draft (never submit) …", "… never doc.submit() …"). Most misses are rules said once without a
  standing word ("we do not use databases.", "I want doxygen style comments in all header files.", "(remember I'm
  unfamiliar with modern python best practices, …)", round 59; "don't put comments into bash snippets, …") or inside a
  task's requirements.
- **Session 24's fresh record (the latest frozen round on each split: round 51 at 972d139 for held-out 156, 158 and
  159, round 52 at e07171e for 160 to 162, round 53 at c41c4f6 for 163 and 164, round 54 at c22cd7e and 24cc5e1 for
  165 and 166): 4 proposals, 1 worth keeping (25%); 0 of 5 rules found. Fresh record since the hold of ADR 0059: 80 of
  144 (56%)**; all frozen rounds 87 of 173 (50%). Ten splits, 377 fresh prompts (5 durable, 35 maybe), labelled apart
  in six batches, each measured by the round frozen before its lane began: two people's prompt logs kept in their
  repositories, Codex CLI sessions copied from a terminal (ThalesGroup/agilab), two German Claude Code transcripts
  (FrankJeworrek/vibe-coding-guide), Cursor chat exports in Chinese and an exported Claude Code session (held-out 161
  and 163), two Japanese Claude Code conversations, and three people's conversation logs found by the names
  chat-export tools write (held-out 164 to 166); two more lanes (held-out 155 and 157) found no new session file and
  no licensed log. The sources are spent: 857 look-ups of the session's 1,000, most of them licence checks that found
  no licence. Worth keeping: "禁止大篇幅删改，请分析关注核心问题。" (a maybe). The mistakes, all in held-out 161
  (round 53): "禁止修改parseTest", "我不允许莫名奇妙出现未经过解析的" and "I would prefer for this to be something
  that can be run on command …". The misses: "I am not supporting python below 3.11 version", "rede bitte Deutsch mit
  mir" (paraphrased; round 52), "do not never care about cython source code as it will be generate automatically",
  "every time I ask you to do something, please log a transcript …" (round 54) and "use well-known libraries rather
  than re-implementing functionality yourself" inside a feature's specification.
- **The fresh record, recomputed by `python -m tools.fresh_record`** (each held-out split from 11 on run by the
  extractor of the last commit before it landed, ADR 0110): 178 proposals, 101 worth keeping (57%); of the 403 durable
  prompts, 73 quoted and 34 said again when first measured (27%); from held-out 100 on, 44 of 84 proposals (52%) and 28
  and 25 of 195 durable prompts (27%); from held-out 183 on (sessions 26 to 30), 17 of 32 and 9 of 74; from held-out 286
  on (sessions 28 to 30), 2 of 4 and 1 of 21; from held-out 305 on (sessions 29 and 30), 0 of 2 and 0 of 3; from
  held-out 349 on (session 30), no proposal and no durable prompt. The hand-kept record above counts some splits by the
  round frozen before their lane began rather than the last change before they landed, hence 102 of 186. Either way the
  goal's first half is short by a few proposals, and its second (the clearly durable rules found) is not met on fresh
  text: most misses are rules inside long task prompts or said once without a standing word.
- **A learned scorer (ADR 0169), measured and dropped**: two models counted from the labels (words, word pairs and
  character runs of a prompt and of its sentences; logistic regression and naive Bayes), proposing the best sentence
  of a prompt the heuristic leaves. Held out by repository its proposals looked 72% worth keeping at the top 25, but
  that was one person's phrasing across their repositories (293 repositories are 263 owners); held out by owner, 56%
  at the top 25, 46% at the top 100 (16 more durable prompts of 479) and at the top 200 (27). As a gate on the 205
  proposals of the fresh record it drops about as many worth keeping as not (under 0.2: 29 dropped, 11 of them worth
  keeping). Nothing of it is in the product.
- **The ninety-fifth round (ADR 0168), withdrawn**: from held-out 410's "Oh my gosh I totally forgot to mention our
  backend MUST be GPU enabled where ever possible …", what the person forgot to mention, "I want to remind you that …",
  "We went over this before, …" and "You keep forgetting this." after a rule were read as rules. Three reviews of three
  versions found the words after these cues as often a report, a complaint, a schedule, this task's spec or someone
  else's words (68 of 85, 39 of 62, then 33 of 50 realistic one-off messages proposed), each version blocking the last
  review's phrases and not their kind; the round was withdrawn and the heuristic is round 94's. The 204 one-off messages
  of the reviews' probe lists (those counted and the third review's further probes) are a test. Held-out 427 and 428
  were measured by its first version (no proposal), as by round 94.
- **The ninety-fourth round (ADR 0167)**, from held-out 414's "… NO EXCEPTIONS!!! ADD THIS AS A MEMORY!!!": "add this as
  a memory", "(also) add / save / write this (also) to (your) memory (-bank)" point back at the rule before them, as
  "make this a rule" did; "keep it in memory" (RAM), and a sentence before that is no rule (thanks, a status line, a
  task asked politely, SQL, code, an error line, a command) give nothing (the session's two reviews; a first version's
  reading of a whole line after a sigh was dropped); "Make this a habit / guideline / principle" is no longer hidden by
  the reminders' cue filter. No split moved (held-out 414's request follows a sigh in a pasted document; held-out 418's
  memory follows a heading). Held-out 414 and 418 are dev (seen) now.
- **The ninety-third round (ADR 0166)**, from session 35's fresh misses and held-out 405's and 409's: "X should / must
  always …" binds a kind of thing as "should / must never" did, kept aside until said in a second session, a git word in
  the sentence notwithstanding (the reviews showed it as often the product's spec, "Users should always see the commit
  hash in the footer."); one thing of the program ("the page must always load the cart first"), what someone else said
  or thought it does, or the person believed ("You said it must always be there", "Bob said …", "I thought the cache
  should never be cold"; not "I said the main branch must never be force-pushed!" nor "I think tests should never …"),
  and a sentence opening with the modal stay out; "any time we / you …" is an occasion like "whenever" ("at any time" is
  not); "moving forward through the wizard …" and "… into the next screen" are motion ("going forward through the end of
  this investigation" and "going forward into the next release" still say how long); "please remember we are running on
  docker containers …" without "that" is kept aside until said again (as often this session's state: "Remember we're
  almost done."). Held-out 52 gains one proposal worth keeping (a maybe said in two sessions) and held-out 409's mistake
  is gone; the first version's proposals on held-out 50, 382 and 415 (worth keeping) and 57 (not) are kept aside now.
  Held-out 409, 410, 411, 413 and 415 are dev (seen) now.
- **The ninety-second round (ADR 0165)**, from held-out 405's miss "From here forward in this repo we will refer to …":
  "from here forward", "from this point on / forward / onwards" are standing words like "from here on (out)", in the
  signal, in the marker that stands alone before a rule, and in "From this point on, work on the frontend" (the next
  piece of work), only opening or closing a clause and not before a place or a description ("Delete all lines from
  this point on in config.yaml", "From here on the left …", "From this point onward, the function returns None":
  the session's review). The prompt itself stays unproposed (it announces what the code will be called); no split
  moved.
  Held-out 405 is dev405 (seen) now.
- **The ninety-first round (ADR 0164)**, from session 33's fresh misses (fjung's, since removed, paraphrased): "keep in
  mind to always …" binds the agent like "remember to always …"; "under no circumstances" (the agent bound), "… is
  strictly off limits" and "it is forbidden to …" forbid like "never" (not what the program must do, not a limit on its
  users, not a server's "forbidden", nor "that's off limits" alone, nor "Nothing is off limits": the session's two
  reviews; a bare "X is strictly off limits" waits for a second session); and
  "do not X! remember this." makes "do not X" a rule (it was read as the task step "do"). On the splits left, held-out
  44 gains its first sentence, worth keeping; nothing else moved. Before the removal it also found held-out 397's rule
  said in six sessions and held-out 398's prohibition.
- **The ninetieth round (ADR 0163)**, from held-out 397's and 400's fresh mistakes: "always" / "never" in a purpose
  clause ("… so I always know which season I'm editing") or in a condition about how things are ("If it's always the
  same button, …") instructs no one, a standing word outside the clause still does ("Always run the tests so that we
  never ship a broken build"); and a text the person asks the agent to weigh, pasted after the request ("Please read
  the statement below and see if this agrees with our DISC or ADR or SPEC …"), is someone else's words, so its "we
  always include a NOTICE file" and "always vet and cite origins" are not the person's rules ("Please follow the rules
  below" still introduces theirs). Held-out 397 (then dev397, removed in session 34): 2 proposals, 1 worth keeping (was
  4 and 1); held-out 400 (now dev400): 1, none (was 4 and none); no other split moved.
- **The eighty-ninth round (ADR 0157)**, from held-out 385's fresh mistake: "which is going to be very useful moving
  forward", "it will be handy going forward", "(it's going to be helpful in the future)" say what a thing of the task
  will be good for, as "so that it can be used going forward" does (ADR 0084), and make no standing rule; a standing
  word outside that clause still does ("The most important rule going forward: …"). Held-out 385 (now dev385): 2
  proposals, both worth keeping (was 3 and 2); no other split moved.
- **The eighty-eighth round (ADR 0152)**, from a scope audit of every split's proposals: a rule quoted with the fenced
  command below it or the sentence after it takes its scope from the whole quote, so "Periodically do: `uv venv; …;
  hatch fmt …`" (dev299, dev300), "As you develop, run `uv venv; …`" (dev35) and dev219's rule naming its files are the
  project's, as is a name never to appear in the work (dev111's three "no mention of faceiq" rules). No figure counts
  scope, so none moved; of the 219 proposals 152 are the project's (was 145).
- **The eighty-seventh round (ADR 0151)**, from the misses with no standing word: where the agent may not write ("Do NOT
  change my files outside of /home/me/src/pipeboard." (paraphrased), "do not change things outside of your own
  folder", "DO NOT WRITE outside vioverse-refactor") is a sandbox rule for every task, proposed at once with project
  scope; in every split the 18 prompts with such a prohibition outside a path, a folder, a repository or a named place
  were all durable (3 people, 16 from one). "Outside this function" is not such a place. Dev2, dev25 and dev152: 1
  more proposal each, worth keeping, 1 more rule found; dev101: 1 more rule found (a third prompt quoted); no other
  split moved.
- **The eighty-sixth round (ADR 0150)**, the gap round 84's stop review found: a standing word before
  "Co-Authored-By" is read as before "co-author" ("Single-line commit messages, no Co-Authored-By trailer, no
  em-dashes anywhere.", dev278). Of the 6 prompts in every split with the trailer's name, the 2 one-offs have no such
  word in its clause. Dev278: 1 proposal (was 0), worth keeping, its 1 rule found; no other split moved.
- **The eighty-fifth round (ADR 0149)**, from round 84's two fresh mistakes, both a git prohibition inside a hand-off
  for one job: "完成後 commit（不要 push/tag），回報 commit hash 與測試結果。" (held-out 344) carries "完成後" (when
  this is done), which in every split came in 5 one-off prompts and 2 maybes, never a rule; it is read as a time of the
  task, like "when you're done". Dev344: no proposal (was 1, not worth keeping); no other split moved. Held-out 323's
  "Do not commit or push. …" (in a brief that opens "Execute the already approved plan …") is left: git prohibitions in
  specifications are kept on purpose (ADR 0054), and one prompt cannot separate the two.
- **The eighty-fourth round (ADR 0147)**, tuned on held-out 291 (session 28's one miss with no standing word), 168 and
  202: who is credited on a commit ("Claude should be listed as co-author (not main author) when Claude commits, …",
  "It's also important to default to single Co-Authored-By, …") is how every commit is signed; in every split the 5
  prompts that say so with "should", "must", "always", "never", "no", "default", "important" or "only" beside
  "co-author" were all worth keeping. And "create a claude.md file … that will instruct you to always list me as
  coauthor …" proposes what the new file is to instruct, as "update CLAUDE.md to always …" did (ADR 0124). Dev291: 1
  proposal, worth keeping, 1 of 1 found (was 0); dev202: 3, all worth keeping, 2 of 2 (was 1 and 1); dev168: 1, worth
  keeping, 1 of 2 (was 0); no other split moved.
- **The eighty-third round (ADR 0146)**, from the reminders every split holds: a sentence that opens "don't forget to
  …" was worth keeping in 6 of 7 prompts ("Don't forget to update ai-prompts.txt with every prompt that I give you.",
  "don't forget to run bun format && … before marking a task as done"), "remember to …" in 3 of 8; it is read as a
  standing request when it says how often ("every", "all", "before …ing") and does not point at the thing at hand ("…
  multipy it here and not in DB!"). Dev31: 11 proposals, all worth keeping, 12 of 16 rules found (was 10 and 11); dev69:
  5, all worth keeping, 8 of 13 found (was 3 and 6); dev55 (was held-out 55): 2, both worth keeping (was 1); no other
  split moved.
- **The eighty-second round (ADR 0145)**, from a near paraphrase that found a gap: Markdown's bold around the rule
  word ("- **Never** push to main.", "**Always** run `make lint` …") hid it from every signal. The marks are dropped
  before the sentence is read; the quote keeps them. Dev207: 2 proposals, both worth keeping (was 1; "… - **NEVER add
  redundant comments** that restate what the code already expresses …", a maybe); no other split moved.
- **The eighty-first round (ADR 0144)**, tuned on held-out 299 and 300, where round 80 found none of Adam Twardoch's
  "Periodically do:" over a fenced block with his dev loop, sent in twelve chats: a sentence ending in a colon only
  leads in, but when what follows is the command the sentence says to run, the colon is the rule's own, as "As you
  develop, run" over the block is without one (ADR 0071). Held-out 299 (now *dev299*): 1 proposal, worth keeping, 5
  of 12 rules found (was 0, 0, 0); held-out 300 (*dev300*): 2 proposals, both worth keeping, 3 of 4 found (was 1, 1,
  0); no other split moved.
- **The eightieth round (ADR 0143)**, from four fresh proposals of "always" or "never" found only in an aside in
  parentheses (held-out 85, 98, 169 and 280; one, a maybe, worth keeping): such a sentence waits for a second session.
  Dev169: no proposal (was 1, not worth keeping); dev98: 2 proposals, both worth keeping (was 3, the maybe held back);
  no other split moved.
- **The seventy-ninth round (ADR 0142)**, from held-out 213's fresh mistake ("Would you remember that, or …?"), which
  round 65 took out with "Please remember that.": "remember this / that" said for someone or some time ("Remember this
  for me.", "Could you remember that for next time?") is the same pointer at the sentence before; it was proposed as
  itself, or as "This for me.". No split moved.
- **The seventy-eighth round (ADR 0141)**, from held-out 207's and 228's fresh mistakes, which rounds 64 and 69 had
  taken out by their own verbs: the person's own plan ("I'd", "I'll", "we'll", "let's" … with no "you") before "next
  time" or "in the future" is not a rule ("We'll fix the styling next time." was still proposed); "I'll" had never
  matched the plan's earlier reading. No split moved.
- **The seventy-seventh round (ADR 0140)**, tuned on held-out 280, where round 76 made one proposal on fresh text, not
  worth keeping: "… footer (always visible when `onCreateTap` is provided, …)" says what state the button is in;
  "always" or "never" before visible, shown, hidden, enabled, available … states no action. Held-out 280: no proposal
  (was 1, not worth keeping); no other split moved.
- **The seventy-sixth round (ADR 0139)**, tuned on held-out 275 and 278, where round 75 made two proposals on fresh
  text, neither worth keeping: "… pre-fill the category when an item is entered in the future" says what the app does
  when a thing happens to it later, and "…; never with the IMGUI HUD on screen or at timeScale=0" qualifies the
  screenshot step before it ("never" or "always" before a preposition states no action; not "in": "Always in English."
  is still a rule). Held-out 275 and 278: no proposal each (was 1 each, not worth keeping); no other split moved.
- **The seventy-fifth round (ADR 0138)**, tuned on held-out 261: "… I would like to reserve pushing decision for
  myself." and "leave the merging to me" keep a kind of decision or action for the person, a new strong signal read as
  a prohibition; "leave it to me" is about the thing at hand. Held-out 261: 1 proposal, worth keeping, 1 of 1 rule found
  (was 0, 0, 0); no other split moved.
- **The seventy-fourth round (ADR 0137)**, tuned on held-out 255: "I am super allergic when you try to put my... your
  words into my mouth." — "I'm allergic when you … / to <a kind of thing>" is read as round 70's dislike, and an
  ellipsis followed by a lower-case word is a pause inside the sentence, not its end, so the quote holds the whole rule.
  Held-out 255: 1 proposal, worth keeping, 1 of 2 rules found (was 0, 0, 0); no other split moved.
- **The seventy-third round (ADR 0136)**, tuned on held-out 195: "You can always read, but Ask me first before
  modifying/wrting!" — "ask / check with me (first) before" a kind of action ("committing", "installing new
  dependencies") is a rule said once, a new strong signal; "ask me before deleting the file" and "ask me to confirm
  before running any shell command …" are steps of one task. Held-out 195: 2 proposals, both worth keeping, 2 of 4 rules
  found (was 1, 1, 1); no other split moved.
- **The seventy-second round (ADR 0135)**, tuned on held-out 248, where round 70 made two proposals on seven dictated
  prompts, neither worth keeping: after "generally," or "in general," a question word or a filler ("Generally, how how
  would the evaluation … work.", "But, generally, like, I don't know how would we...") is no rule. Held-out 248: no
  proposal (was 2, none worth keeping); no other split moved.
- **The seventy-first round (ADR 0134)**, tuned on held-out 204: "please recall that you should not be rummaging in
  `claude-dev-log-diary` directory without my explicit permissions, …" says the rule was given before, so the named
  folder no longer holds it back, and after "I have now committed the day-016.md --" the rule is what follows the dash.
  Held-out 204: 2 proposals, both worth keeping, 2 of 4 rules found (was 1, 1, 1); no other split moved.
- **The seventieth round (ADR 0133)**, tuned on held-out 196, 205, 215 and 218, where one person's dislikes said once
  were the session's rules: "I don't like / hate / dislike / can't stand" a kind of thing ("I dislike comments in bash
  source listings", "I hate all the bla-bla comments that say …", "I dont like nested types", "I don't like to use
  mocks") or the agent's way of working ("I hate when you just drop 100 lines of code …", "I really dislike how you
  always rush to implementation …") is proposed at once, no longer held back with the other first-person kinds (ADR
  0110); "I dislike the ton of functions …", "I don't like that layout" and "I don't like to see this" name the thing at
  hand and still wait. Held-out 196, 205, 215 and 218: 1 proposal each, worth keeping, 1 rule found in each; held-out
  20 (2 proposals, both worth keeping, 1 of 1 found, as before round 49) and 182 (1 proposal, a maybe) moved too: 6
  proposals more, all worth keeping, 5 rules more found.
- **The sixty-ninth round (ADR 0132)**: "continue / resume / carry on / pick it up … next time" says where this work
  picks up again ("I'd like to end this day's session and continue next time."), a future the sentence only describes;
  "Next time, continue from the last commit instead of starting over." still instructs. Held-out 228: no proposal (was
  1, not worth keeping); no other row moved.
- **The sixty-eighth round (ADR 0131)**: "in (the) future I / we like / love / hope / intend / expect to …" is the
  person's own plan ('For example, in future I like to add new table and associated streamlit page on top, …'), as "in
  the future we'd want …" is; "In the future I like you to run the tests first." still instructs. Held-out 222: no
  proposal (was 1, not worth keeping); no other row moved.
- **The sixty-seventh round (ADR 0130)**: "when we get to … in the future" names a point the work will reach ('add
  also "// TODO finished book", so that we grow this with all types when we get to that feature in the future'), so its
  "in the future" is a future the sentence only describes; "… so that we don't miss it in the future" still reaches
  every later session. Held-out 218: no proposal (was 1, not worth keeping); no other row moved.
- **The sixty-sixth round (ADR 0129)**: "I told you to copy / paste / fetch / clone …" is a job the agent has not done
  yet ("That book is already there, I told you to copy Extreme Programming Explained"), as "I told you to fix the login
  bug" was (ADR 0065), not a rule it forgot. Held-out 216: no proposal (was 1, not worth keeping); no other row moved.
- **The sixty-fifth round (ADR 0128)**: "Please remember that." and "Would you remember that, or …?" alone in their
  sentence point at what was said before, as "Make this a rule" does (ADR 0097): the sentence before is the rule when
  it reads as one ("Use pnpm, not npm. Please remember that."), and nothing is proposed when it does not ("this was
  very good. Please remember that."); before, the pointer itself was proposed, a memory with nothing in it. Held-out
  213: 1 proposal, worth keeping (was 3, 2 worth keeping by the labels, one of them "Please remember that."); no other
  row moved.
- **The sixty-fourth round (ADR 0127)**: a lesson to be taken "for (the) next time" ("So we'll learn from this crisis
  for the next time.") says no rule, so its "next time" is a future the sentence only describes; "Next time, ask me
  first." still instructs. Held-out 207: 1 proposal, worth keeping (was 2, 1 worth keeping); no other row moved.
- **The sixty-third round (ADR 0126)**: a sentence that opens by asking for this work's task list or plan ("Prepare a
  task list with TodoWrite to incrementally improve the regexes and always test the modified script …") sets the
  method of that plan's steps, "always" and "never" included; the same words in a sentence of their own are still a
  rule. Held-out 205: no proposal (was 1, not worth keeping); no other row moved.
- **The sixty-second round (ADR 0125)**: a sentence that opens on the answer to a question just asked ("If yes", "If
  so", "If not", "If that's the case") says what to do in this case: "(BTW is that from your report? If yes, that's a
  total BS and we shouldn't commit but go to review of the reports instead)" forbids nothing for later; a strong word
  after it ("If so, never push to main again.") still counts. Held-out 183: no proposal (was 1, not worth keeping);
  no other row moved.
- **The sixty-first round (ADR 0124)**: a request to update the agent's instruction files "to keep X away from / out
  of Y", "to always …" or "to never …" holds that rule, as "to ensure that …" did; one request may name two files ("I
  want you to update CLAUDE.md and AGENTS.md to keep agentic coding systems away from dev-logs, unless …"). Held-out
  184: 1 proposal, worth keeping, 1 of 1 rule found (was none); no other row moved.
- **The sixtieth round (ADR 0123)**: "remind you to" binds the agent before "always" or "never", as "I want you to"
  and "remember to" do ("I wanted to remind you to always run specs locally beforu pushit to GH."). Held-out 191:
  1 proposal, worth keeping, 1 of 1 rule found (was none); no other row moved.
- **The fifty-ninth round (ADR 0122)**: "remember" with "that" left out before what the person is or does ("(remember
  I'm unfamiliar with modern python best practices, so please don't let me derail you …)") is read as "remember that
  I'm …" was. Held-out 181: 1 proposal, worth keeping, 1 of 1 rule found (was none); no other row moved.
- **The fifty-eighth round (ADR 0121)**: "in the future" inside "to prevent / to avoid …" says what this step is for
  ("improve the CLAUDE.md to prevent this type of failure in the future"), as "so that it can be used going forward"
  does; a standing word outside it still counts. Held-out 178: 2 proposals, both worth keeping (was 3, 2 worth
  keeping); 2 of 4 rules found; no other row moved.
- **The fifty-seventh round (ADR 0120)**: "we don't …" after "as", "since" or "because" gives the reason for the
  request at hand ("Remove the word fixture from the commit message, as we don't use it anymore"); it forbids nothing.
  Held-out 175: no proposal (was 1, not worth keeping); no other row moved.
- **The fifty-sixth round (ADR 0119)**: "make a note in project memory of this" (or "make a note of that") in the
  sentence of a rule asks for it to be kept, as "keep that in mind" does, so a "don't" said once is proposed at once.
  Held-out 173: 1 proposal, worth keeping, 1 of 2 rules found (was none); no other row moved.
- **The fifty-fifth round (ADR 0118)**: a bare "in general" or "generally" frames a rule beyond this case only with
  its comma or colon ("In general, do not offer several possibilities"); "In general analyze the cpgrid-bot and use the
  best out of it" says how to look at one thing. Held-out 169: 1 proposal (was 2, neither worth keeping); no other row
  moved.
- **The fifty-fourth round (ADR 0117)**: an occasion that is every request ("every time I ask you to do something,
  please log a transcript …", "whenever I ask you anything, …") is a standing rule when it opens the clause, as "from
  now on" is; "every time you run the tests, …" still waits for a second session. Held-out 164: 1 proposal, worth
  keeping, 1 of 2 rules found (was none); no other row moved.
- **The fifty-third round (ADR 0116)**: 禁止 (prohibit) and 不允许 (not allowed) say "do not", as 不许 and 不准 did, and
  wait for a second session (with 永远, 绝对 or 千万 before them, and 严禁, still "never"); "I would prefer for this /
  it to …" is a wish for the thing at hand and waits too, even with "instead". Held-out 161: no proposal (was 4,
  1 worth keeping); no other row moved.
- **The fifty-second round (ADR 0115)**: the language of the conversation asked in its own words ("rede bitte Deutsch
  mit mir" (paraphrased), "réponds en français", "用中文回答", "日本語で答えて") or as a bare "speak German", asked of
  the agent; the signal's name is now "language of the conversation". Held-out 159: 1 proposal, worth keeping, 1 of 2
  rules found (was none); no other row moved.
- **Said again (ADR 0113)**: a durable prompt that says, word for word, the quote of a proposal worth keeping is found
  ("9 (+3 said again) of 18"): a rule said in twenty sessions is one proposal with a few quotes. On every split: 184
  of 347 durable prompts found (was 152 counted by quotes alone); precision unchanged.
- **Session 23's fresh record (the latest frozen round on each split, held-out 145 to 154): 3 proposals, 2 worth
  keeping (67%); 2 of 10 rules found. Fresh record since the hold of ADR 0059: 79 of 140 (56%)**; all frozen rounds 86
  of 169 (51%). Nine splits, 391 fresh prompts (10 durable, 39 maybe), labelled apart in four batches, each measured
  by the two rounds frozen before its lane began (both gave the same figures on every split); a tenth lane (held-out
  147) found no licensed log that quotes the person. The sources are close to spent: 981 of the session's 1,000
  look-ups gave those 391 prompts (the vexylicon exports came from PyPI, no look-up), and 3,000 more sdists on PyPI
  (packages named for MCP, Claude, Cursor, Copilot, Codex or agents) shipped no history but one test fixture. The
  round written this session (49) came from the record by signal rather than from one split's mistakes; it measured
  eight of the nine splits: 3 proposals, 2 worth keeping (round 48 gave the same on the three it also measured). The
  misses: "Before doing work, verify Linear access …" (twice, one session), "We need pure-Python depedencies." after a
  pasted traceback, "any new tool you build should be in rust, …", "make sure to periodically upload work to the
  current repo with commit and push …" (round 51), "only stop when you need me to perform an action …", "i want it all
  free", and a weak "do not change things outside of your own folder" said once.
- **Held-out 154, the measure of the frozen fiftieth and fifty-first rounds (947ea88, 466f0bf): no proposal, no rule
  to find — the same for both.** 1 fresh prompt: a newer version of a hook-fed prompt log whose other entries are the
  app's, webhooks and timed wake-ups.
- **The fifty-first round (ADR 0112)**: "make sure to / be sure to" before "always", "never" or "periodically" binds
  the agent, as "remember to" does ("make sure to periodically upload work to the current repo with commit and push …",
  a routine about git, so proposed at once). Held-out 152: 1 proposal, worth keeping, 1 of 4 rules found (was none);
  no other row moved.
- **Held-out 152 and 153, the measure of the frozen forty-ninth and fiftieth rounds (d9e78fa, 7aa97a5): no proposal;
  0 of 4 durable rules found — the same for both.** 234 fresh prompts (4 durable, 20 maybe): four new people's
  agent-kept prompt logs (`docs/PROMPT_HISTORY.md`: Chinese, Korean and English) and jeffcai's log further on.
- **Held-out 149 to 151, the measure of the frozen forty-ninth and fiftieth rounds (d9e78fa, 7aa97a5): 1 proposal,
  worth keeping; 1 of 3 durable rules found — the same for both.** 116 fresh prompts (3 durable, 13 maybe): Fused
  Gaming's other prompt logs and the end of HadyBytes' log, two SpecStory exports shipped in vexylicon's sdist on PyPI
  (fontlaborg/vexylicon), two new people's prompt logs (`PROMPT_HISTORY.md`, `prompt_history.md`), and ontouchstart's
  last five session files to their ends. Worth keeping: "Always run script via nix develop --command .".
- **The fiftieth round (ADR 0111)**: "in this project, we're going to …" (and "we'll", "we want to", "we can" …) is
  the plan of the task, as "in the future we'd …" is. Held-out 146: 1 proposal, worth keeping (was 2, 1); no other row
  moved.
- **Held-out 145, 146 and 148, the measure of the frozen forty-eighth and forty-ninth rounds (b733b0b, d9e78fa): 2
  proposals, 1 worth keeping; 1 of 3 durable rules found — the same for both.** 40 fresh prompts (3 durable, 6 maybe):
  ontouchstart's and lushanoperera's sessions further on, LAF-US's Gemini chats to their ends, and two new people's
  agent-kept logs (`conversation_log.md`, `PROMPT_HISTORY.md`); a fourth lane (held-out 147, `docs/SESSION_LOG.md` and
  `SESSION_LOG.md` holders) found no licensed log that quotes the person. Worth keeping: "For the rest of our
  conversation: don't rush, prefer asking over guessing, and always propose best practices." The mistake: "In this
  project, we're going to create a Python script that …" (the plan of the task). The misses: LAF-US's "Before doing
  work, verify Linear access. If unavailable, report exact missing config and do not simulate Linear state.", said twice
  in one session.
- **The forty-ninth round (ADR 0110), from the fresh record by signal**: on the 129 proposals the rounds made on
  held-out splits they had never seen (held-out 11 to 144, each run with the extractor of the last commit before it
  landed), "we use" was worth keeping 3 times of 13, "I don't like" 1 of 6 and "I prefer" 1 of 4 (one rule found in
  all 23), against 71 of 106 for every other kind. Said once, those three now wait for a second session, unless the
  sentence chooses against something ("we use pnpm, not npm", "prefer X over Y", "… instead"), says where it holds
  ("in this repo"), asks to be kept in mind, or follows a reminder word or a request naming an instruction file. On
  every split: 163 proposals, 155 worth keeping, 149 of 337 rules found (was 171, 161, 152); the lost finds are dev 2's
  "I don't like peek, …" (paraphrased), held-out 20's "I dont like nested types, …" and 121's "I use github and prefer
  the gh cli, …", each proposed when said again in another session.
- **Session 22's fresh record (the latest frozen round on each split, held-out 132 to 144): 4 proposals, 1 worth
  keeping (25%); 0 of 2 rules found. Fresh record since the hold of ADR 0059: 77 of 137 (56%)**; all frozen rounds 84
  of 166 (51%). Eleven splits, 553 fresh prompts (2 durable, 34 maybe), labelled apart in three batches while rounds
  46 to 48 were written, each measured by the two rounds frozen before it was seen (both gave the same figures on every
  split); two more lanes (held-out 134 and 138) found no licensed source. The sources ran thin: SoryAK's Copilot chat to
  its end (495 prompts, no rule), people already in splits further on, a Kilo Code export, a committed Codex home and
  three agent-kept logs; most holders of new file kinds (Roo Code and Kilo Code exports, Codex homes, session logs)
  have no licence file. The mistakes: a choice for one step ("lets do gemini as well … but i would prefer the local AI
  first"), "we run into some critical problems", and a complaint about the screen ("I dont like how you can see the
  sections …"), each taken by the next round. The misses: "You should run `nix develop ... ` in command line without
  starting a new shell." and an Italian request to say in his global CLAUDE.md that a tool must use one model.
- **Held-out 143 and 144, the measure of the frozen forty-seventh and forty-eighth rounds (f172f00, f87e293): no
  proposal, no durable rule to find — the same for both.** 12 fresh prompts (0 durable, 3 maybe): LAF-US's Gemini chats
  and H4D3ZS's Codex rollouts further on, and the rest of ASAtechin's prompt history.
- **Session 21's fresh record (the latest frozen round on each split, held-out 115 to 131): 17 proposals, 8 worth
  keeping (47%); 3 of 26 rules found. Fresh record since the hold of ADR 0059: 76 of 133 (57%)**; all frozen rounds 83
  of 162 (51%). Sixteen splits, 1,887 fresh prompts (26 durable, 151 maybe), labelled apart while rounds 42 to 45 were
  written, each measured by the two or three rounds frozen before it was seen (every round gave the same figures on
  every split it measured); a seventeenth lane (held-out 129) found no licensed prompt. The end of imorgado's history
  (620 prompts, no rule), LAF-US's agent histories (900 prompts), committed Claude Code homes, ontouchstart's and
  jchidley's sessions further on, and ten people's chat logs.
  The mistakes: "remember you need to …" twice, a tool chosen for one task in two sessions ("Use github mcp and grep
  mcp", "use the /auto command to complete this", "use github mcp"), a role-play's "I'd prefer a single word over
  CamelCase." and narration ("… but never paid direct attention."), and a sentence cut short ("The protocols we write
  are expressions of"). The misses: rules in forms no round read ("I am asking you to always …", "Add to CLAUDE.md that
  …", "I use X and prefer Y", Italian requests to update CLAUDE.md "so that …": rounds 43 and 44), one person's
  doctrine in capitals ("IFF you have exhausted the VAULT - You may search the web"), and requests to write rules into
  governance files ("UPDATE GOVERNANCE so that every agent …").
- **The forty-eighth round (ADR 0109)**: "I don't like how you can see / tell / notice …" is a complaint about what
  this screen shows, like "I don't like how it looks". Held-out 140: no proposal (was 1, not worth keeping); no other
  row moved.
- **Held-out 139 to 142, the measure of the frozen forty-sixth and forty-seventh rounds (720f7ae, f172f00): 1
  proposal, not worth keeping; no durable rule to find — the same for both.** 285 fresh prompts (0 durable, 19 maybe):
  the end of SoryAK's Copilot chat, a Kilo Code task export, a new person's agent-kept log (Chinese) and a committed
  Codex home. The mistake: "I dont like how you can see the sections with the hard lines and want them to blend right
  into each other" (a complaint about this screen).
- **The forty-seventh round (ADR 0108)**: "we run into / run out of / run across" tells what happened, no convention;
  a preference inside a sentence that opens with "let's" chooses for that step ("lets do gemini as well as a local AI
  but i would prefer the local AI first"), unless it compares two ways ("X over Y") or says "from now on". Held-out
  137: 1 proposal, worth keeping (was 3, 1); no other row moved.
- **Held-out 132, 133 and 135 to 137, the measure of the frozen forty-fifth and forty-sixth rounds (761d756, 720f7ae):
  3 proposals, 1 worth keeping; 0 of 2 durable rules found — the same for both.** 256 fresh prompts (2 durable, 12
  maybe): ontouchstart's and lushanoperera's sessions further on, LAF-US's Gemini chats further on, a new person's
  agent-kept log, and SoryAK's Copilot chat further on. Worth keeping: that the app is for real users, with its slogans
  (a maybe). The mistakes: "Lets do gemini as well as a local AI but i would prefer the local AI first" (a choice for
  one feature) and "Based on the state resources and the way its set up we run into some critical problems." The
  misses: "You should run `nix develop ... ` in command line without starting a new shell." and an Italian request to
  say in his global CLAUDE.md that gemini-mcp-tool must use Gemini-2.5-pro ("specifica che …").
- **The forty-sixth round (ADR 0107)**: a line that ends on a word no sentence ends on ("… are expressions of") and a
  next line going on in lower case are one sentence, whatever their lengths (a terminal's narrow wrap pasted back); the
  rule after a request and a spaced dash ("Then, add … conventions to claude.md - we are using Test Driven
  Development.") is quoted without the request. Held-out 128: 2 proposals, both worth keeping, 2 of 3 found (was 1, 1);
  held-out 123: no proposal (was 1, not worth keeping); no other row moved.
- **Held-out 125 to 128, 130 and 131, the measure of the frozen forty-fourth and forty-fifth rounds (da3fedd,
  caf7ad4): 3 proposals, 2 worth keeping; 2 of 4 durable rules found — the same for both.** 199 fresh prompts (4
  durable, 7 maybe): LAF-US's remaining Gemini chats, ontouchstart's and jchidley's sessions further on, six people's
  chat logs (`CONVERSATION_LOG.md`, `chat_history.md`). Worth keeping: "I am asking you to always use nix develop
  --command bun test." (the person of held-out 117, sending it again; round 43 reads it) and "from now on, add each
  chat to the conversation history". The mistake: "Then, add methodologies, workflows and conventions to claude.md - we
  are using Test Driven Development.", the rule quoted with the request before it.
- **The forty-fifth round (ADR 0105)**: "as a general warning / as a rule / in general" before an instruction is a
  standing word, proposed at once; "never" before an irregular past ("… but never paid direct attention") describes.
  Held-out 122: 2 proposals, 1 worth keeping, 1 of 2 found (was 2, none, none); no other row moved.
- **Held-out 122, 123 and 124, the measure of the frozen forty-third and forty-fourth rounds (a420af8, da3fedd): 3
  proposals, none worth keeping; 0 of 8 durable rules found — the same for both.** 531 fresh prompts (8 durable, 39
  maybe): LAF-US's Claude Code and Codex histories to their ends and his older Gemini chats, and lushanoperera's
  transcripts past their first page.
- **The forty-fourth round (ADR 0104)**: an Italian request to update an instruction file "so that …" ("aggiorna il tuo
  CLAUDE.md globale affinché …", "… in modo che …") gives the rule after it; "remember you need to …" is this task's
  need, no longer "remember that"; "… to complete this (as well)" points at the task. Held-out 118: 2 proposals, both
  worth keeping, 2 of 5 found (was none); held-out 115: 3 proposals, 2 worth keeping (was 6); held-out 109 (seen) loses
  its one kept proposal; no other row moved.
- **Held-out 115, 118 and 120, the measure of the frozen forty-first to forty-third rounds (29dd413, 89bd23d,
  a420af8): 7 proposals, 3 worth keeping; 1 of 11 durable rules found — the same for all three.** 752 fresh prompts.
- **The forty-third round (ADR 0103)**: "I am asking you to always …" binds the agent; "Add to CLAUDE.md that X" asks
  for X as a rule; "I use X and prefer Y" is a preference; "how Y does it" points at the task. Held-out 117 and 121: 3
  proposals, all worth keeping, 3 of 3 found (was none); no other row moved.
- **Held-out 116, 117, 119 and 121, the measure of the frozen forty-first and forty-second rounds (29dd413, 89bd23d): 4
  proposals, 3 worth keeping; 0 of 3 durable rules found — the same for both.** 405 fresh prompts.
- **The forty-second round (ADR 0102)**: a name kept out of the work ("make sure there is no mention of X at all", "do
  not include any mention of X in the comments", "don't mention X anywhere") is a standing prohibition, proposed at
  once; a pronoun object ("any mention of that") takes the sentence before. Held-out 111 (seen): 6 proposals, all worth
  keeping, 9 of 13 found (was 1, 4); the five are one rule from four sessions in five wordings. No other row moved.
- **Session 20's fresh record (the latest frozen round on each split, held-out 97 to 114): 17 proposals, 11 worth
  keeping (65%); 4 of 66 rules found. Fresh record since the hold of ADR 0059 then: 68 of 116 (59%)**; all frozen
  rounds 75 of 145 (52%). Seventeen splits, 3,774 fresh prompts (66 durable, 338 maybe), labelled apart while
  rounds 35 to 41 were written, each measured by the one or two rounds frozen before it was seen; an eighteenth
  lane (held-out 108) found no licensed source. Seventeen new people, most in prompt logs and Claude Code homes
  found by new paths (`statsig/` files, `CHAT_HISTORY.md`, `conversation-log.md`); imorgado's history alone gave
  2,588 prompts. The mistakes: a feature request's "今后" (from now on), "remember this is only 4-6 minutes", a
  hand-off's "Approach: Do NOT explore the full codebase." pasted twice (round 40 takes it), "We keep teh guide
  basic.", and two tools invoked by name in several sessions ("Use configure_simulation to threat_modeling", "use
  splice-security-ops"). The misses: one rule said in 32 sessions with no signal word (round 41 takes it), the
  same rule in other words in 8 (round 41), and rules said once in one person's own wording ("you need always to
  …", "… is mandatory", "as you know we should avoid …"; round 39), most of them never said that way in any other
  split.
- **Held-out 114, the measure of the frozen forty-first round and its review mends (9535022, 7ee18cb): 1 proposal,
  worth keeping; 0 of 1 durable rule found — the same for both.** 502 fresh prompts (1 durable, 51 maybe): imorgado's
  history further on. Worth keeping: "Use grep mcp to look at real world code examples.", said in 10 sessions. The
  miss: "remove any mention of FACEIQ and parity; it should not be in the code at all", said once in these words.
- **Held-out 113, the measure of the frozen fortieth and forty-first rounds (567be83, 9535022): 3 proposals, 1 worth
  keeping; 0 of 1 durable rule found — the same for both.** 413 fresh prompts (1 durable, 41 maybe): imorgado's
  history further on. Worth keeping: "use grep mcp", said in 7 sessions. The mistakes: "Use configure_simulation to
  threat_modeling" (7 sessions) and "use splice-security-ops" (2), each a whole message invoking one tool or agent of
  his by name, read as a bare "use X" said again. The miss: his end-to-end-test step, pasted once in this stretch
  (round 41 waits for a second session).
- **The forty-first round (ADR 0101)**: a step for each piece of the work ("After implementing each feature run an end
  to end test …", "After every change, run the linter") is an occasion like "whenever you": held back, proposed when
  said in a second session; "remember after every …" is "remember that". Held-out 112 gives 5 proposals (was 4), 4
  worth keeping, 5 of 32 rules found (was 1); held-out 111 1 (was none), worth keeping, 4 of 13 found; no other row
  moved. A wider rule (any long sentence said in three sessions) was measured and dropped: 9 of 58 worth keeping.
- **Held-out 111 and 112, the measure of the frozen thirty-ninth and fortieth rounds (9968036, 567be83): 4 proposals,
  3 worth keeping; 1 of 45 durable rules found — the same for both.** 709 fresh prompts (45 durable, 82 maybe): the next
  two stretches of held-out 98's imorgado's history. The mistake: "We keep teh guide basic." (one-off). The misses:
  one rule said in 32 sessions, "After implementing each feature run an end to end test that looks for bottlenecks,
  bugs, …" (round 41 takes it), and as "remember after every feature is implemented that it runs those end to end
  tests …" in 8; "make sure there is no mention of faceiq at all, no comments nothing" in other words in 4.
- **The fortieth round (ADR 0100)**: a session hand-off the agent wrote and the person pasted to open the next session
  (three of "What's Done", "Current State", "Next Step", "Key Files", "Key Context", "Approach" at a line's start) is
  read like quoted text, from its first label to the end of its last label's block; what the person types after it is
  read as ever. Held-out 109 gives 1 proposal (was 2), worth keeping; no other row moved.
- **Held-out 109 and 110, the measure of the frozen thirty-eighth and thirty-ninth rounds (ec9501b, 9968036): 2
  proposals, 1 worth keeping; 0 of 1 durable rule found — the same for both.** 550 fresh prompts (1 durable, 39
  maybe): the next two stretches of held-out 98's imorgado's Claude Code prompt history. The mistake: "Approach: Do NOT
  explore the full codebase. Use the context above.", the close of a hand-off his agent writes and he pastes to open a
  session, pasted in two sessions (round 40 takes it). The miss: "… whilst retaining 80% profits margins at least",
  a constraint asked as a question.
- **The thirty-ninth round (ADR 0099)**: "always" after "you need to" / "you need always to" ("we need to", not "we
  have to", which complains), "avoid" after "you/we should" or "need to" (a weak rule, as "avoid" at a clause's start
  is), "X is mandatory" and "it is mandatory that …" (not "this is mandatory"), and "as you know …" at a sentence's
  start counted as said before (ADR 0062), so the weak rule after it is not held back. Held-out 106 gives 4 proposals
  (was none), all worth keeping, 3 of 4 rules found; no other row moved. Four wordings of one person, each said once in
  every split: a fit the next fresh split must confirm.
- **Held-out 106 and 107, the measure of the frozen thirty-seventh and thirty-eighth rounds (aad0f67, ec9501b): 1
  proposal, worth keeping; 0 of 5 durable rules found — the same for both.** 854 fresh prompts (5 durable, 63 maybe):
  the rest of held-out 98's thomas0369's prompt history (592 prompts) and of held-out 105's Copilot chat, and the next
  stretch of held-out 98's imorgado's (238). The proposal: "This is where we will be working from now on." (a maybe).
  The misses: "you need always to verify that the importer is working.", "as you know we should avoid python because
  we want to drive it on vercel.", "browser testing is mandatory", "you need to secure that the dev server is running
  when you start browser tests" (one person, each said once in these words), and a design system in an opening
  request ("… enforce this theme globally").
- **Held-out 104 and 105, the measure of the frozen thirty-sixth and thirty-seventh rounds (9bd8f83, aad0f67): no
  proposal, no mistake; 0 of 2 durable rules found — the same for both (and for the thirty-eighth, written while they
  were labelled).** 112 fresh prompts (2 durable, 11 maybe): held-out 102's person's transcripts past their first
  page, and three new people's chat logs (a Copilot chat exported whole, two logs the agent kept at the person's
  request, one in Chinese). The misses: "dont mix armv7 and amd64 in one tar file keep the arm platform tar file and amd
  platform files separate please" and "So this is a new system and not in production. We can change any API we want"
  (a project fact), both said once with no standing word.
- **The thirty-eighth round (ADR 0098)**: a request to update an agent instruction file "to ensure (make sure) that
  …" carries its rule, to the end of the sentence, as one with a colon or quotes does (ADR 0058): "Change my CLAUDE.md
  to ensure that I am called Jack and not 'Harp Dog'". Not when what it is to ensure points back ("… to make sure
  that it has whatever is needed …"). Held-out 102 gives 2 proposals (was none), both worth keeping, 2 of 2 rules
  found; held-out 45 2 (was 1), both worth keeping; no other row moved.
- **The thirty-seventh round (ADR 0097)**: "Make this a rule" (or "treat that as a standing rule", "add it as a hard
  rule"), alone in its sentence, makes the sentence before a rule: the quote is both, read as a reminder's rule is (no
  task step, no question, no named code). A sentence held back for a second session is proposed at once after it.
  Held-out 98 gives 3 proposals (was 2), all worth keeping, 2 of 5 rules found; no other row moved.
- **Held-out 97 to 103, the measure of the frozen thirty-fifth and thirty-sixth rounds (bc1b517, 9bd8f83): 6
  proposals, 4 worth keeping (67%); 3 of 11 durable rules found — the same for both rounds.** 634 fresh prompts (11
  durable, 51 maybe), labelled apart while round 36 was written: people's own prompt logs (a Russian, a Spanish and a
  Chinese one among them), three new people's Claude Code prompt histories, more of held-out 84's person's pi
  sessions, a new person's Claude Code transcripts, more records of held-out 25's person's prompt history, and one
  Cursor chat in Chinese. The mistakes: "…请增加一个让用户设置信息源的功能，…今后搜集材料的过程中…" ("今后", from
  now on, inside a request for a feature: what the feature will do) and "continue and remember this is only 4-6
  minutes." (a limit on the piece at hand); each is one sentence in every split, and both are left standing. The
  misses: "… Make this a rule" (round 37 takes it), "Just so you are aware, I want all software projects to end up in
  the "dev" dir" and the same said again, "always upload it directly to github and gh-pages", "We'll be using pygame
  2.6.1 and Python 3.13.3." with "Run all unit tests before outputting code to me." in an opening request, two
  requests to write a rule into CLAUDE.md that the agent itself recorded, and a brief of scope rules.
- **The thirty-sixth round (ADR 0096)**: how every command of a kind is run here is a convention said once: "run
  python commands through uv", "Cargo commands should be wrapped with nix develop --command", "we should run script
  via nix develop --command …", "only use nix develop --command to run all commands". Not "run the commands in the
  terminal" (the ones at hand). Held-out 92 gives 3 proposals (was 1), 2 worth keeping, 2 of 2 rules found; held-out
  31 10 (was 9), all worth keeping, 11 of 16 found; held-out 84 3 (was 2), all worth keeping, 3 of 4 found; no other
  row moved.
- **Held-out 95 and 96, the measure of the frozen thirty-fifth round (1bae8e1): no proposal, no mistake; no durable
  rule in them.** 35 fresh prompts (5 maybe): held-out 84's person's pi sessions from 80,000 characters on (nudges,
  limits for one exercise, pasted build logs, working wishes said once: "update one test file at a time. Move to the
  next one only it works."), and four questions from held-out 91's person's Codex rollouts further on.
- **This session's fresh record (the latest frozen round on each split, held-out 82 to 96): 17 proposals, 11 worth
  keeping (65%); 7 of 19 rules found. Fresh record since the hold of ADR 0059: 57 of 99 (58%)**; all frozen rounds 64
  of 128 (50%). Fifteen labellers found 1,410 fresh prompts with about 990 of the session's 1,000 look-ups, all in
  later stretches of sources already used or in sources the earlier sections had named and left: the index has few
  new people left. The mistakes: a table's row, an app's settings called "my preference", a request to store the
  current state, a video's title in a run log, a consequence ("then we only use bun"); rounds 32 to 35 take all but
  the last. The misses: rules said once in a wording no round reads (Turkish before round 33, "Remember you must …"
  before round 35, "we should run script via nix develop --command …"), and rules said in long bug reports.
- **Held-out 94, the measure of the frozen thirty-fourth round (e66881d): no proposal; 0 of 1 durable rule found.** 14
  fresh prompts (1 durable, 3 maybe): more of held-out 91's person's Codex rollouts, labelled apart while the round
  was written. The miss: "Remember you must use the nx mcp, the effect doc search mcp, and context7 for effect patterns
  … to find what you need." ("remember" with its "that" left out).
- **The thirty-fifth round (ADR 0095)**: "remember" followed by "you" or "we" and a word that binds ("must", "should",
  "need to", "have to", "always", "never", "can't", "don't") is "remember that …". Held-out 94 gives 1 proposal (was
  none), worth keeping, 1 of 1 rule found; no other row moved.
- **Held-out 92, the measure of the frozen thirty-third and thirty-fourth rounds (ba7cb52, e66881d): 1 proposal, not
  worth keeping; 0 of 2 durable rules found — the same for both.** 67 fresh prompts (2 durable, 15 maybe): more of
  held-out 84's person's pi sessions and of held-out 90's Cursor agent transcripts, labelled apart while both rounds
  were written. The mistake: "It is OK to use nixpkgs from master, then we only use bun." (a consequence of this set-up,
  labelled one-off; no round takes it: the wording is in no other split). The misses: "And only use nix develop
  --command to run all commands." and "Cargo commands should be wrapped with nix develop --command." — the rule held-out
  84 and 90 found, here said once in each of two wordings no round reads as the same.
- **Held-out 91 and 93, the measure of the frozen thirty-third round (ba7cb52): 6 proposals, 4 worth keeping; 2 of 2
  durable rules found.** 62 fresh prompts (2 durable, 7 maybe), labelled apart and read after the round was frozen:
  one person's Codex rollouts past the instructions Codex injects at their start (91), two people's Japanese chat
  exports past the stretches read (93). Found: "you should always use effect doc search when learning effect api's."
  with two more "you should always …" in that message, and "Effect services must never leak requirements". The
  mistakes, both in held-out 93's pasted run logs: a video's title, "Rick Astley - Never Gonna Give You Up (Official
  Video)".
- **The thirty-fourth round (ADR 0094)**: "never" or "always" that begins a title in Title Case ("Never Gonna Give You
  Up", "Always Look on the Bright Side") is no signal. Held-out 93 gives no proposal (was 2, neither worth keeping); no
  other row moved.
- **Held-out 87 to 90, the measure of the frozen thirty-second round (a438d5e): 5 proposals, 3 worth keeping; 3 of 8
  durable rules found.** 1,122 fresh prompts (8 durable, 101 maybe), labelled apart and read after the round was
  frozen: the rest of two prompt histories of people in held-out 9/10 and 16 (87: 983 prompts, one person's Claude
  Code history), hand-kept chat logs past their first part (88, one of them in Turkish), SpecStory exports past their
  first part (89, Japanese among them), Codex rollouts, Cursor agent transcripts and more pi sessions (90). Found: a
  CLAUDE.md rule said in two sessions ("… use the /browse skill from gstack for all web browsing, never use
  mcp__claude-in-chrome__* tools"), "always use nix develop --command bun test to run tests". The mistakes: "it still
  same posts even i updated my preference interests" (an app's settings) and "現状をメモリーに記憶しておいて" (store the
  current state). The misses: three Turkish rules, an English rule asked to be written to a file ("make a md file … to
  remind you that this server should be backward compatible"), a French wish to be answered in French.
- **The thirty-third round (ADR 0093)**: Turkish prohibitions ("kesinlikle … bozma", "asla … değiştirmemeli") and
  "bundan böyle" (from now on); "my preference" only as "my preference is …"; "現状" (the current state) makes a
  Japanese sentence this moment's. Held-out 88 gives 3 proposals (was none), 2 worth keeping, 1 of 3 rules found;
  held-out 87 1 (was 2), worth keeping; held-out 89 none (was 1); no other row moved.
- **Held-out 82 to 86, the measure of the frozen thirty-first round (fc66a2d, with the mend of 125d95a): 5 proposals,
  4 worth keeping; 2 of 6 durable rules found.** 110 fresh prompts (6 durable, 16 maybe), labelled apart and read
  after the round was frozen: later stretches of sources already in a split — one person's IBM Bob phase briefs (82),
  Amp threads past their first page (83), more pi agent sessions of held-out 80's person (84: 79 prompts), Claude Code
  transcripts past 160,000 characters (85), Bob exports (86). Found: "Before moving forward, you should always check
  the current environment and code to see it acturally work." and three rules of a pasted file-naming convention
  ("Always use ISO date format: YYYY-MM-DD", …). The mistake: a row of that convention's table, ".png    The file
  format (always PNG for violation annotation compatibility)". The miss that mattered: "Use nix develop --command to …",
  said in three sessions in three wordings.
- **The thirty-second round (ADR 0092)**: a bare "use X" joins the earlier one that chose the same thing ("nix develop
  --command"), whatever it is for, so a choice said in two sessions for two purposes is proposed; and in a message the
  person typed, the lines of a table pasted as text (two or more lines in a row, cells apart by a tab or three or more
  spaces) are read like quoted text. Held-out 84 gives 2 proposals (was 1), both worth keeping, 3 of 4 rules found;
  held-out 85 gives 3 (was 4), all worth keeping; no other row moved.
- **Held-out 81, the measure of the frozen twenty-eighth to thirty-first rounds (94fbdb9, 5c04e79, f71cf56, fc66a2d): no
  proposal, no mistake; no durable rule in it — the same for all four.** 13 fresh prompts (2 maybe) of three new
  people's IBM Bob task exports, labelled apart while the thirty-first round was written: build specifications and
  their follow-ups, whose one standing wish ("Do not write placeholder comments like …") is said once.
- **The thirty-first round (ADR 0091)**: a first-person heading over a list of how the person works ("Key patterns I
  follow:", "Key patterns I've established:", "Documentation workflow I established:") heads working rules as "Working
  Rules" does (ADR 0089), each item held back until a second session's brief says it again. Held-out 72 gives 3
  proposals ("TDD approach: write failing tests first, then implement", "Use saturating_sub …", the XDG preference), all
  worth keeping, 4 of 13 rules found; no other row moved. No split measures it.
- **Held-out 79 and 80, the measure of the frozen twenty-eighth to thirtieth rounds (94fbdb9, 5c04e79, f71cf56): no
  proposal, no mistake; no durable rule in them — the same for all three.** 112 fresh prompts (12 maybe) of two new
  kinds of source, labelled apart while the thirtieth round was written: one new person's Kiro CLI prompt history
  (`.kiro/.cli_bash_history`; project choices said in passing, "change the backend to use mysql not mongodb", MUI
  three times, each once and with no standing word) and another's pi coding agent sessions (34 short single-task trials
  against local models; "We are in a nixos environment.").
- **The thirtieth round (ADR 0090)** takes held-out 78's mistake: "… were marked with `#[allow(dead_code)]` as they are
  now used indirectly or might be used in the future." — "in the future" after "can", "could", "may" or "might" says
  what may become of a thing. Held-out 78 gives no proposal and reads *dev78* (seen); no other row moved.
- **Held-out 78, the measure of the frozen twenty-eighth and twenty-ninth rounds (94fbdb9, 5c04e79): 2 proposals, 1
  worth keeping (a maybe); 0 of 2 rules found — the same for both.** 67 fresh prompts (2 durable, 25 maybe), a later
  stretch of held-out 72's person (57 more Amp threads), labelled apart while the twenty-ninth round was written. The
  mistake: the agent's words in a hand-off the person sent (above).
- **The twenty-ninth round (ADR 0089)** reads the briefs a person pastes again and again: in a pasted document, a
  first-person "I prefer …" and each item under a "Working Rules" heading are held back like a weak rule and proposed
  when a second session's brief says them again (a brief re-sent word for word is a retry); "All future work goes
  inside …" is a standing word. Held-out 72 gives 1 proposal ("I prefer XDG-style ~/.config paths over …", quoting two
  hand-offs), 75 gives 1, 77 gives 2 ("Define every technical term before using it.", "Solve adjacent issues you spot
  — do not wait to be asked."), all worth keeping, 5 of their 19 rules found; their rows read *dev72*, *dev75* and
  *dev77* (seen); no other row moved.
- **Held-out 71 to 77, the measure of the frozen twenty-eighth round with the planner's merge of ADR 0088 (94fbdb9): no
  proposal, no mistake; 0 of 20 durable rules found.** 175 fresh prompts (20 durable, 40 maybe), labelled apart and read
  after the round was frozen: later stretches of long IBM Bob exports (71, 77), a new kind of source, one new person's
  Amp thread exports (72: 105 prompts, 13 durable), prompt logs (73, 76: four and two new people), prompt-history
  records (74) and transcripts (75) of people already in a split. Every rule missed sat in a pasted brief: Amp's
  hand-offs ("I prefer XDG-style ~/.config paths …", "Key patterns I follow: TDD …"), a sub-task brief's "Working
  Rules", "All future work goes inside …/vioverse-refactor/." in a message that lists the folder's files.
- **This session's fresh record (the latest frozen round on each split, held-out 71 to 81, 78 as the twenty-ninth round
  measured it): 1 of 2 proposals worth keeping, 0 of 22 rules found. Fresh record since the hold of ADR 0059: 46 of 82
  (56%)**; all frozen rounds 53 of 111 (48%). Eleven labellers found 367 fresh prompts with about 990 of the session's
  1,000 look-ups; nearly half of them are one person's Amp threads (held-out 72 and 78). Where a source has rules,
  they sit in pasted briefs; where it has none (held-out 73, 74, 76, 79, 80, 81), the rounds propose nothing, as they
  should.
- **One rule about one file said in other words in one run is one proposal (ADR 0088).** Held-out 69's "always add my
  prompts to ai-prompts.txt", said in four wordings on nine days, was four proposals: when the same file is named in
  both and three quarters of the shorter wording's words are in the other, they are one, quoting each turn. Held-out 69
  gives 3 proposals (was 6), all worth keeping, the same 6 of 13 rules found; no other row moved.
- **The twenty-eighth round (ADR 0087)**: "this file" or "that file" right after a sentence that names one file is
  that file: "Did you add that prompt to my ai-prompts.txt? You should always add my prompts to that file." (held-out
  69) and "… in a file called ai-history.md. ALWAYS record my messages … into this file …" (held-out 53) are rules now,
  quoted with the sentence that names the file. Held-out 53 gives 5 proposals, all worth keeping, 4 of 4 rules found;
  held-out 69 gives 6, all worth keeping, 6 of 13 found; no other row moved. No split measures it.
- **The twenty-seventh round (ADR 0086)** takes held-out 66's misses: a person who pastes a long brief for each task,
  each closing with "Do not commit or push to GitHub." (or "Do NOT commit.", "DO NOT push changes to GitHub."). A
  pasted document is still not read as instructions, but its git prohibitions are held back as a weak rule is, and
  proposed when a second session says them again. Held-out 66 gives 1 proposal, worth keeping, quoting eight briefs, 4
  of 7 rules found, and reads *dev66* (seen); no other row moved. No split measures it: the look-ups were spent.
- **Held-out 70, the measure of the frozen twenty-third to twenty-sixth rounds (1096479 the last): no proposal, no
  mistake; no durable rule in it — the same for all four.** 32 fresh prompts (6 maybe) of three new people's prompt
  logs (`gemini-prompts.md`, `ai-prompts.txt`), labelled apart while the twenty-sixth round was written and read after
  it was frozen. Its six *maybe* prompts are standing rules said inside a task ("NO `@layer` directives", "Do NOT
  commit broken code."), weak words said once, which the heuristic holds back until a second session.
- **The twenty-sixth round (ADR 0085)** takes held-out 69's mistake, with near misses in `test_heuristic_round26.py`:
  "as I look forward to implementing … in the future" (the person's own plan, like "I would … in the future", ADR
  0078); and "always" or "never" after "remember to" or "don't forget to" ("Remember to always run the tests before
  committing.", "Don't forget to always add my queries to ai-prompts.txt") and "In the future, I'd like you to …"
  instruct, where they were no rule. Held-out 69 gives 5 proposals, all worth keeping, 5 of 13 rules found, and reads
  *dev69* (seen); no other row moved.
- **Held-out 66 to 69, the measure of the frozen twenty-third to twenty-fifth rounds (0b94c10 the last): 7 proposals,
  6 worth keeping; 6 of 22 durable rules found — the same for all three.** 225 fresh prompts (22 durable, 15 maybe),
  labelled apart while the twenty-fifth round was written and read after it was frozen: IBM Bob task exports of eight
  new people from a hackathon (held-out 66, 67), a later stretch of a held-out 64 person (68), and one new person's
  185-prompt log that his Copilot agent kept at his request (69). Held-out 69 gave 6 proposals, 5 worth keeping (his
  standing "always add my prompts to ai-prompts.txt", said on nine days, proposed in four wordings; "Always use the
  virtual environment: …"), held-out 67 one ("Working agreement: production code only, no console.log or TODOs, never
  invent schema fields, …"). The mistake: "Especially as I look forward to implementing searching, auditing, and
  editing assets in the future." Missed: held-out 66's seven briefs, each a task brief "for this task ONLY" that ends
  with standing rules ("Do not commit or push to GitHub.", "Do not modify or delete anything inside bob_sessions/."),
  and the same person's rules said once without a signal word ("use venv. You keep forgetting this.").
- **The twenty-fifth round (ADR 0084)** takes held-out 57's mistakes and a miss, with near misses in
  `test_heuristic_round25.py`: "in the future" after "is" places a time ("The last time you used is in the future."),
  "so that it can be used going forward" gives the purpose of a step; "make a note to / that …" (at the start of a
  sentence or after "and", "or", "please" …) is the person asking the agent to keep it ("Either install it or make a
  note to not use it again and what to use instead."). Held-out 57 gives 2 proposals, both worth keeping, 2 of 3 rules
  found, and reads *dev57* (seen); dev48 gains a proposal worth keeping and 2 rules found ("make a note to always
  update it"); no other row moved.
- **Held-out 57, 64 and 65, the measure of the frozen twenty-third and twenty-fourth rounds (46b2dc0 the last): 3
  proposals, 2 worth keeping; 1 of 4 durable rules found — the same for both.** 160 fresh prompts (4 durable, 32
  maybe), labelled apart while the twenty-fourth round was written and read after it was frozen: later stretches of
  three people's prompt logs (held-out 57), IBM Bob task exports of three new people (64) and four new people's
  hand-kept logs (65). The proposals: "Use those from now on." (where the backlog now lives), "The last time you used
  is in the future." (counted worth keeping, its prompt a *maybe*, but a complaint about a timestamp), and, not worth
  keeping, "… append the structured data to the task so that it can be used going forward."
- **The twenty-fourth round (ADR 0083)** takes a miss of held-out 60: "make sure the ai never writes any code to alter
  the test cases …". "make sure" or "ensure" before "you" or "we" is a lead for "never", "always", "don't" …, and
  before the agent named ("the AI", "Claude" …) "never" and "always" may take the third person. Held-out 60 gives 2
  proposals, both worth keeping, 1 of 2 rules found, and reads *dev60* (seen); no other row moved.
- **Held-out 58 to 63, the measure of the frozen twenty-third round (f1353e7): 1 proposal, worth keeping; 0 of 3
  durable rules found.** 125 fresh prompts (3 durable, 18 maybe): later stretches of six people's Claude Code
  transcripts, Codex rollouts and SpecStory exports past what earlier splits read (mostly tool output: about one typed
  prompt per two pages), and two new people's Copilot chat exports. The proposal: "じゃぁ今後tarot_clipは無いものとし
  てとらえて" ("from now on, treat tarot_clip as gone"). Missed: a rule closing a task brief ("make sure the ai never
  writes any code to alter the test cases …"), a correction in Japanese with no signal word, and a pasted brief's
  "IMPORTANT: Please do not reference or attempt to analyze any legacy versions of this project."
- **This session's fresh record (the latest frozen round on each split, held-out 57 to 70, 60 and 69 as they were
  measured): 9 of 11 proposals worth keeping (82%), 7 of 29 rules found**; this session's own rounds on fresh prompts
  (the twenty-fourth on held-out 57, 64 and 65, the twenty-fifth on 66 to 69, the twenty-sixth on 70) 8 of 10 (80%), 7
  of 26 rules found. **Fresh record since the hold of ADR 0059: 45 of 80 (56%)**; all frozen rounds 52 of 109 (48%). The
  search index's sources are close to used up: fifteen labellers found 542 fresh prompts (held-out 57 to 70) with about
  980 of the session's 1,000 look-ups, most of the lanes giving under 50.
- **The twenty-third round (ADR 0082)** takes the rule a person tacks onto a request after "remember", "keep in mind" or
  "don't forget" when it has a strong signal: "Come up with a plan for these tests, remember I don't like to use mocks."
  (held-out 53) proposes "I don't like to use mocks."; "…, remember to run the tests" is still a step of the task.
  Held-out 53 gives 4 proposals, all worth keeping, 3 of 4 rules found, and reads *dev53* (seen); no other row moved.
  Held-out 57 to 70 measured it later (f1353e7, above).
- **The twenty-second round (ADR 0081)**, tuned on held-out 48 (seen since the twentieth): "for all (the) future
  sessions" and "in all future conversations" are a standing word, where "in future sessions" is still an adjective
  before a noun (ADR 0049). Held-out 48 gives 4 proposals, all worth keeping, 4 of 11 rules found; no other row moved.
  Held-out 57 to 70 measured it later, with the twenty-third (above).
- **One rule said again in one run is one proposal (ADR 0079).** "Always use rustup to run Rust commands" and "Always
  use rustup" (held-out 50), "Use `uv pip ...` not `pip ...` ." and "Plus always use "uv pip...", not "pip"!" (held-out
  36) were proposed apart: all the words of the shorter wording are in the longer, which has at most four times as many.
  The merged proposal quotes every turn, as many as its memory file holds; "always" is left out of the words compared,
  as "never" was. Held-out 50 gives 4 proposals and held-out 36 gives 2, all worth keeping, the same rules found; the
  measured records above and below are as the frozen rounds gave them.
- **Held-out 55 and 56, the measure of the frozen nineteenth to twenty-first rounds (2138b88 the last): 1 proposal,
  worth keeping; 1 of 7 durable rules found — the same for all three.** 162 fresh prompts (7 durable, 36 maybe) of
  prompt logs, labelled apart while the twenty-first round was written and read after it was frozen: six people's (one
  of them a later stretch of held-out 51 and 52's Rysweet), and two more's in Chinese and Norwegian. The proposal: "…
  all wokr is on VM of course always never work on laptop , always vm …", a rule the person restates as a correction.
  Missed: the same rule said without a signal word ("yea so we don't do laptop work here …", "… all work is supposed to
  happen on remote vm"), "these agents must alwyas test afterwards" (misspelt), "Keep logging prompts.", a request to
  write every prompt to a file, and "ensure that the pmac CLI is always used" inside a longer request. **This session's
  fresh record: 16 of 29 proposals worth keeping (55%), 12 of 47 rules found**; this session's rounds on fresh prompts
  (the twentieth on held-out 52 to 54, the twenty-first on 55 and 56) 7 of 13 (54%), 5 of 22 rules found. **Fresh record
  since the hold of ADR 0059: 36 of 69 (52%)**; all frozen rounds 43 of 98 (44%). This session's ten labellers found
  1,209 fresh prompts (47 durable) with about 970 of the search index's 1,000 look-ups, all of them from prompt logs, a
  kind of source no earlier split used.
- **The twenty-first round (ADR 0078)** takes held-out 52's mistakes, with near misses in `test_heuristic_round21.py`:
  "in the future" in a plan or a possibility with no "you" in it ("an operation that we would want to perform multiple
  times in the future", "Perhaps I should in the future."), "we use" after "though", "although" or "while", "we're using
  X to see what …", and "going forward" right after "that", "it" or "the new <thing>" ("… and then lock that moving
  forward", "we will use the new schema moving forward"). Held-out 52 gives 3 proposals, all worth keeping; no other row
  moved.
- **Held-out 52 to 54, the measure of the frozen nineteenth and twentieth rounds (f4dbd59 the last): 12 proposals, 6
  worth keeping; 4 of 15 durable rules found — the same for both.** 411 fresh prompts (15 durable, 54 maybe) of prompt
  logs, labelled apart while the twentieth round was written and read after it was frozen: a later stretch of held-out
  51's two people (held-out 52) and nine new people, one of them in Korean. Held-out 53 gave 3 proposals, all kept
  ("Using conventional commits, stage a commit after each processed user command.", "Don't actually commit or push.", a
  rule for CLAUDE.md), held-out 54 none; the six mistakes were all in held-out 52, a researcher's long, discursive
  prompts (above). Fresh record since the hold then: 35 of 68.
- **The twentieth round (ADR 0077)** takes held-out 48 and 51's mistakes, with near misses in
  `test_heuristic_round20.py`: "I don't like" with no object after it ("the things i don't like, let me name a few"), a
  quoted name after "I don't like" or "prefer", "I never say / asked / meant …", "never" or "always" after "could" or
  "might", "that will … in the future", the plural of the task's things ("all of these steps", said in two sessions),
  and "as I mentioned many times in the previous plan." as the reminder's cue alone. Held-out 48 and 51 give 3 and 2
  proposals, all worth keeping, and one more of held-out 48's rules is found; no other row moved.
- **Held-out 47 to 51, the measure of the frozen nineteenth round (341b857): 16 proposals, 9 worth keeping; 7 of 25
  durable rules found.** 636 fresh prompts (25 durable, 83 maybe) of 22 people, from a kind of source no split had used:
  prompt logs kept in repositories (`PROMPTS.md`, `prompt_history.md`, `CHAT_LOG.md`, `AI_USAGE.md`, dated `.prompts/`
  files), by hand or by the agent at the person's request, labelled apart this session before any round was run on them.
  Held-out 50 gave 5 proposals, all kept (a Rust developer's "Always use rustup", said in several forms, and two more);
  47 and 49 none; the mistakes were in held-out 48 (a physicist's long review notes) and 51. Fresh record since the hold
  then: 29 of 56 (52%).
- **Held-out 46, the measure of the frozen fifteenth to nineteenth rounds: no proposal, no mistake; no durable rule in
  it to find — the same for all five.** 39 fresh prompts (0 durable, 1 maybe) of the same game developer, labelled
  apart after the nineteenth round was frozen: his last listed records and the log of requests he keeps at the root of
  the repository. Fresh record since the hold stays 20 of 40; with these, this session's eight labellers found 469
  fresh prompts (7 durable) with 907 of the search index's look-ups.
- **Held-out 45, the measure of the frozen fifteenth to nineteenth rounds (be3a5cd the last): 1 proposal, worth
  keeping; 1 of 2 durable rules found — the same for all five.** 98 fresh prompts (2 durable, 5 maybe) of held-out
  43's game developer, later records of the same history (fresh text, not a new person), labelled apart after the
  nineteenth round was frozen. The proposal: "First implement the feature or bugfix, then in the same go implement the
  e2e test, … BUT always ensure that the e2e test is actually …", his rule for AGENTS.md. Missed: "change the rule set
  so it is allowed to run a dev server and then continue to fix the test until it succeeds" (no signal word).
  **Fresh record since the hold of ADR 0059: 20 of 40 (50%)**; all frozen rounds 27 of 69 (39%); this session's rounds
  on fresh prompts 5 of 8 (63%), and 3 of 7 rules found. This session's seven labellers found 430 fresh prompts (7
  durable) with 866 of the search index's 1,000 look-ups (one of them also read about 50 archives on PyPI).
- **The nineteenth round (ADR 0076)** takes held-out 43's one mistake, with near misses in
  `test_heuristic_round19.py`: a past participle after "never" or "always" describes ("… is set once … and never
  updated when moveTarget changes", "we never used mocks"), as a gerund does; "never embed", "never shed", "always
  proceed" still instruct. Held-out 43 gives 1 proposal, worth keeping; no other row moved.
- **Held-out 43, the measure of the frozen fifteenth to eighteenth rounds: 2 proposals, 1 worth keeping; no durable
  rule in it to find — the same for all four.** 102 fresh prompts (0 durable, 14 maybe) of two new people, labelled
  apart after the eighteenth round was frozen: a spec-kit-plus user's prompt history records (6) and the first 96 of
  the 500 records a browser game's developer keeps of his requests to coding agents (48 as typed, 33 the agent's
  summary, 15 GitHub Copilot's context block around the request). Kept: "Do not change any files that could be causing
  merge conflicts when the task list is processed in parallel by multiple agents!" (a maybe); the mistake: a bug
  report, "RestorationMoveTarget is set once during unit restoration and never updated when moveTarget changes".
  **Fresh record since the hold of ADR 0059: 19 of 39 (49%)**; all frozen rounds 26 of 68 (38%); this session's
  rounds on fresh prompts 4 of 7 (57%), and 2 of 5 rules found.
- **Held-out 44, the measure of the frozen fifteenth to eighteenth rounds (2521714 the last): 1 proposal, worth
  keeping; 1 of 1 durable rule found — the same for all four.** 69 fresh prompts (1 durable, 5 maybe) of held-out 39's
  person, the older records of the same Claude Code 1.0.x history, labelled apart after the eighteenth round was
  frozen (fresh text, not a new person). The proposal: "Always report actual values from the JK-BMSs", the second half
  of "Please under no circumstances make up of adjust data just to make it seem correct.  Always report actual values
  from the JK-BMSs". **Fresh record since the hold of ADR 0059: 18 of 37 (49%)**; all frozen rounds 25 of 66 (38%);
  this session's rounds on fresh prompts 3 of 5, and 2 of 5 rules found.
- **The eighteenth round (ADR 0075), frozen before held-out 43 and 44 were read,** takes held-out 42's one mistake,
  with near misses in `test_heuristic_round18.py`: a numbered or bulleted step of a workflow that runs an agent command
  ("4. /sp.clarify — resolve ambiguity …; never invent features.") says what that command is to do in this run, and is
  read as quoted text is; a message that is itself a command, a path and a step with no command are read as before.
  Checking whether a sentence lies in a quoted range is now a search, not a pass over every range: a message of 16,000
  quoted sentences took 9.3 s and now takes 0.5 s. Held-out 42 gives 2 proposals, both worth keeping; no other row
  moved.
- **Held-out 42, the measure of the frozen fifteenth, sixteenth and seventeenth rounds: 3 proposals, 2 worth keeping;
  1 of 3 durable rules found — the same for all three.** 10 fresh prompts (3 durable, 4 maybe) of three new people,
  labelled apart after the seventeenth round was frozen: prompts a course author recorded while trying Gemini CLI and
  Qwen Code, shipped in the specifyplus source distribution on PyPI, and spec-kit-plus "prompt history records" in two
  project repositories (records the agent writes with the prompt copied in; one is condensed, its window says so). Kept:
  "Never sacrifice responsiveness for visual effects." (a project constitution's principle) and "Animations must never
  affect monitoring performance or reconnect timing."; the mistake: "never invent features", part of one step of a
  one-session workflow ("4. /sp.clarify — resolve ambiguity …; never invent features."). Missed: "Continue to document
  prompt and effect in prompts dir." (sent to both tools). **Fresh record since the hold of ADR 0059: 17 of 36 (47%)**;
  all frozen rounds 24 of 65 (37%); this session's rounds on fresh prompts 2 of 4.
- **Held-out 39 and 41, the measure of the frozen fifteenth (cb38678), sixteenth (64ad760) and seventeenth (907ad88)
  rounds: no proposal, no mistake; 0 of the 1 durable rule found — the same for all three.** 124 fresh prompts (1
  durable, 3 maybe) of four new people, labelled apart after the seventeenth round was frozen: the Claude Code 1.0.x
  history kept in a Home Assistant add-on's configuration folder (held-out 39, 57 prompts), and the prompt histories
  GitHub Copilot CLI and Mistral Vibe keep, committed in three project repositories (held-out 41, 67 prompts). The
  rule missed: "dont delete the conversations files, those are to be put in the database, permenantly untouchable." (a
  weak "don't", said once: held back, ADR 0059). **Fresh record since the hold of ADR 0059: 15 of 33 (45%)**; all
  frozen rounds 22 of 62 (35%); fresh recall since the hold of this session's rounds 0 of 1. This session's three
  labellers found 151 fresh prompts (1 durable) with 376 look-ups: the search index's licensed histories are close to
  used up.
- **The seventeenth round (ADR 0074), frozen before held-out 39 was read,** takes held-out 40's one mistake, with near
  misses in `test_heuristic_round17.py`: "I dont like the way you put coming soon as buttons" is about the screen in
  front of the person (the way the agent did one thing, a part of the screen in the same clause), as "I don't like the
  header" is; "I hate the way you write commit messages" and "I don't like the way you add icons everywhere" still
  state a dislike. No other row moved.
- **Held-out 40, the measure of the frozen fifteenth (cb38678) and sixteenth (64ad760) rounds: 1 proposal, not worth
  keeping; no durable rule in it to find — the same for both.** 27 fresh prompts (0 durable, 4 maybe), labelled apart
  after the sixteenth round was frozen: later stretches of two SpecStory exporters already in a split. The proposal
  is "I dont like the way you put coming soon as buttons, rather than phase2 or pahse 3, I think we should put Coming
  soon there in that text, but not yellow, teal": a complaint about the screen at hand. **Fresh record since the hold
  of ADR 0059: 15 of 33 (45%)**; all frozen rounds 22 of 62 (35%).
- **The sixteenth round (ADR 0073), frozen before held-out 39 and 40 were read,** is for recall, with nothing proposed
  at once, and near misses in `test_heuristic_round16.py`: a rule repeated across sessions is quoted from each session
  it was said in, up to the evidence limit of ten (three before) and as many as its memory file holds (a 40-byte rule
  with UUID ids from ten sessions, a 600-byte one from two); "periodically" or "regularly" before an imperative
  ("Periodically run `python ./cleanup.py status` …") and "you are not allowed to …" / "you are allowed to … except
  …" are kinds held back until said in a second session. On the seen splits every proposal is still worth keeping (62,
  from 59) and 63 of 119 durable prompts are found (from 56): held-out 28's scope rule quoted from six sessions,
  held-out 35 9 of 18 rules (from 6) with "Periodically run …" proposed, held-out 36 "Periodically run …" too,
  held-out 19 4 of 5 rules (from 3).
- **Held-out 37 and 38, the measure of the frozen twelfth to fifteenth rounds (cb38678 the last): no proposal, no
  mistake; no durable rule in them to find — the same for all four.** 35 fresh prompts (0 durable, 3 maybe), labelled
  apart after the fifteenth round was frozen: a new person's Claude Code 2.x history kept in a project's
  `.claude-user` folder (5 prompts), and later stretches of a student's Qwen Code chats and three SpecStory exporters.
  With the proposals of held-out 31 to 38 this session: **fresh record since the hold of ADR 0059: 15 of 32 (47%)**;
  all frozen rounds 22 of 61 (36%). The search index's licensed histories are close to used up: this session's six
  labellers who searched it found 314 fresh prompts, from 5 to 130 a labeller, with about 890 of its 1,000 look-ups;
  the two who read the sdists of held-out 19's person on PyPI found 179 with 20.
- **The fifteenth round (ADR 0071), frozen before held-out 37 and 38 were read,** takes held-out 35 and 36's classes,
  with near misses in `test_heuristic_round15.py`: a rule that ends in "run" or "use" and leads to a fenced command
  on the lines below it holds that command ("As you develop, run ```uv venv; …; hatch test;```", whose description
  shows the command as inline code), and "plus" joins a rule to what came before it like "also" ("Plus always use "uv
  pip...", not "pip"!"). On the seen splits: held-out 35's kept proposal now holds its command, and held-out 36 gives 2
  proposals, both worth keeping, and 4 of 5 rules. No other row moved.
- **Held-out 36, a measure of the frozen twelfth, thirteenth and fourteenth rounds: 1 proposal, worth keeping; 3 of 5
  rules found — the same for all three.** 72 prompts of the same person from the exports his phiton, opero and lmstrix
  source distributions ship (7 of them repeat held-out 19 or 35's text; without them, 65 prompts give the same
  proposal and 2 of 4 rules). The proposal is "Use `uv pip ...` not `pip ...` ." again. Missed: "Plus always use
  "uv pip...", not "pip"!" ("plus" is no joining word the "always" signal reads) and a "Use" with "uv pip..." two
  lines below it. Fresh record then: 15 of 32 since the hold; all frozen rounds 22 of 61.
- **Held-out 35, a measure of the frozen twelfth, thirteenth and fourteenth rounds: 2 proposals, both on prompts worth
  keeping; 6 of 18 rules found — the same for all three.** 107 prompts of Adam Twardoch (held-out 19's person) from
  the SpecStory exports his twat, twat-cache, twat-fs, twat-llm and twat-mp source distributions ship on PyPI,
  labelled apart after the fourteenth round was frozen. 19 of them repeat held-out 19's text word for word (his
  end-of-work routine, sent again); without them, 88 fresh prompts give the same 2 proposals and 5 of 14 rules. The
  proposals: "Use `uv pip ...` not `pip ...` ." and "As you develop, run", whose command is in the fenced block on the
  lines after it, which the quote does not hold: counted worth keeping by its prompt's label, a reviewer would have to
  write the command in. Missed: the dev loop given as "As you develop, run ```…```" in most prompts (the same rule,
  proposed once), "I don't want setup.py, just pyproject.toml!", and "note that in the .venv you have the actual code
  of the 3rd party libs to consult!" in a numbered brief. Fresh record then: 14 of 31 since the hold; all frozen
  rounds 21 of 60.
- **Held-out 33 and 34, the measure of the frozen twelfth (3fe6bc2), thirteenth (643b2e9) and fourteenth (3fe77b0)
  rounds: no proposal, no mistake; no durable rule in them to find — the same for all three.** 84 fresh prompts (0
  durable, 10 maybe), labelled apart and landed after the fourteenth round was frozen, each round run once with
  `memory_review/extract/` checked equal to its commit: a Claude Code 2.x history and a student's Qwen Code chats (two
  new people), and later stretches of three SpecStory exporters. The search index's sources are close to used up: this
  session's four labellers found 279 fresh prompts with 602 of its look-ups. Fresh record then: 12 of 29 since the
  hold; all frozen rounds 19 of 58.
- **The fourteenth round (ADR 0070), frozen before held-out 33 and 34 were read,** takes held-out 31 and 32's misses
  and mistakes as classes, with near misses in `test_heuristic_round14.py`: a one-line message typed with Claude
  Code's `#` memory shortcut ("#Always run bun format && bun lint --fix && bun typecheck after every change") is
  proposed as a rule for CLAUDE.md whatever its words, but not VS Code Copilot's chat variables ("#terminalSelection
  fix this", "#sym:DrawBBox …"), an issue number, a heading or a question; a question after a joining word needs no
  question mark ("also ARE WE USING …"); "I don't like" before pasted data ("I dont like ('Tight Aggressive', …)")
  dislikes the agent's output. On the seen splits: held-out 32's two mistakes are gone, and held-out 31 gives 9
  proposals, all worth keeping, and 10 of its 16 rules. No other row moved.
- **Held-out 31 and 32, the measure of the frozen twelfth (3fe6bc2) and thirteenth (643b2e9) rounds: 5 proposals, 3
  worth keeping; 3 of 18 rules found — the same for both rounds.** 195 fresh prompts (18 durable, 20 maybe), labelled
  apart and landed after both rounds were frozen, each round run once with `memory_review/extract/` checked equal to
  its commit. Held-out 31 (130 prompts, two new people's Claude Code 1.0.x prompt histories): 3 proposals, all worth
  keeping ("After each change you make to the project files, run this command: just build test lint format", the
  person's "sleep mode" working rules, "Always use localizable screens."), 3 of 16 rules found. Missed: nine rules
  typed as Claude Code's `#` memory shortcut ("#Always run bun format && bun lint --fix && bun typecheck after every
  change"), which no round reads ("#" with no space is no heading mark), "run python commands through uv", "make sure
  to strip trailing spaces off lines touched and end each file with a single newline", "use turbo for updates and
  upgrades", a reminder ("we went over this before, … ONLY use reactnative language") and a permission ("you are
  allowed to read any file from the project except the .env files"). Held-out 32 (65 prompts, later stretches of three
  SpecStory exporters): 2 proposals, neither worth keeping — "also ARE WE USING SERIALIARIOTN CORRECTLY AND FULLY" (a
  question with no question mark, after "also") and "I dont like ('Tight Aggressive', …)," (a dislike of pasted data,
  the agent's own output); 0 of 2 rules found ("every time we get a new issue check the docs on how to solve it.", an
  occasion held back since ADR 0059, and a generated file never edited by hand). **Fresh record since the hold of ADR
  0059: 12 of 29 (41%)**; all frozen rounds 19 of 58 (33%).
- **The thirteenth round (ADR 0069), frozen before held-out 31 and 32 were read,** takes held-out 25, 28 and 29's
  misses and mistakes, measured by the frozen tenth to twelfth rounds, as classes, each with near misses in
  `test_heuristic_round13.py`: a pictograph before a rule is a list mark ("❌ DO NOT WRITE outside vioverse-refactor"
  is read from "DO"); a weak rule ("do not", "avoid") inside a brief or spec waits for a second session instead of
  being dropped with the brief's task, so the scope brief the person pasted at the start of nine sessions gives its
  rule; a rule that points to a paste Claude Code kept only as a placeholder ("keep in mind moving forward: [Pasted
  text #1 +263 lines]") is not proposed; "never" or "always" before a gerund describes ("old data just never being
  removed"), except verbs that end in -ing themselves ("never bring"). On the seen splits: 2 mistakes gone, 1
  proposal added and worth keeping, 3 more rules found (dev 28); every seen split's proposals are now all worth keeping.
- **Held-out 30, the measure of the frozen eleventh (5bf7efd) and twelfth (3fe6bc2) rounds (ADR 0068): no proposal,
  no mistake; no durable rule in it to find.** 103 fresh prompts (0 durable, 4 maybe; 4 Japanese prompts among them),
  mostly a BMAD session's menu answers. It shows the twelfth round adds no mistake there, not that it finds Japanese
  rules on fresh text: the search index's sources are close to used up (this session's seven labellers found 1,048
  fresh prompts; they and an engineer looking for archives used 922 of its 1,000 look-ups). **Fresh record unchanged:
  16 of 53 proposals worth keeping (30%); since the hold of ADR 0059, 9 of 24.**
- **The twelfth round (ADR 0068), frozen before held-out 30 was read,** reads Japanese: "remember" (覚えておいて),
  "from now on" (今後, これからは, 次回から), and "every time / always / without fail" (その都度, 毎回, 常に, 常時,
  必ず) in a request ("…てください", "…てほしい", "…てもらえる？" — a request that asks with a question mark is no
  question), with near misses in `test_heuristic_round12.py` ("毎回opus4が立ち上がって困る", a complaint; "毎回エラー
  が出るので直してください", a reason and this task; "今回は", "このファイル"). On the seen splits it adds 4
  proposals, all worth keeping, and finds 2 more rules (dev 27's "その都度成果物をNotionに出力してもらえる？", dev 29's
  "今後…覚えておいて"); nothing else changed. The tool now gives each labelled session the id the product's readers
  would (`session_key`): a SpecStory title in Japanese or Russian is no valid session id, and the first Japanese
  finding on one stopped the evaluation.
- **Held-out 29, a third measure of the frozen tenth and eleventh rounds (ADR 0067): 1 proposal, not worth keeping; 0
  of 3 rules found — the same for both.** 238 fresh prompts (3 durable, 14 maybe). The proposal is a "never" inside
  the person's reasoning ("… deprecated data … just never being removed and causing bloat."), in a prompt whose rule
  is another passage. Missed: a Japanese "remember that" (覚えておいて) about where each novel's folder lives, a
  Japanese template of standing rules pasted for the agent, and a Chinese restatement of the game's mechanics.
  **Fresh record of frozen rounds, each once on the splits labelled or judged for it: 16 of 53 proposals worth
  keeping (30%); since the hold of ADR 0059: 9 of 24 (sixth to ninth 3 of 12; tenth 4 of 8 on 1,987 fresh prompts;
  eleventh 2 of 4 on 941). Rules found on held-out 25 to 29: 0 of 25. The goal (6 of 10, and the clear rules found)
  is not met.**
- **Held-out 27 and 28, a second measure of the frozen tenth and eleventh rounds (ADR 0067): no proposal; 0 of 15
  rules found — the same for both rounds.** 363 fresh prompts (15 durable, 19 maybe). The misses are three kinds: a
  person's scope rules pasted at the start of ten sessions ("WORK ONLY IN: …/vioverse-refactor/", "❌ DO NOT WRITE
  outside vioverse-refactor", "From this point forward: 1. Only work inside this directory"), read as pasted
  documents and skipped whole; "utilise _bmad-output/planning-artifacts/prd.md", "le prd à utiliser est le prd.md",
  "Utilise prd.md" in three sessions (French: the ninth round's "use X said again" reads English only); and a
  Japanese standing request ("その都度成果物をNotionに出力してもらえる？", output each deliverable to Notion every
  time). Over held-out 25 to 28 the two rounds found 0 of 22 fresh rules.
- **Held-out 25 and 26, the measure of the frozen tenth (2ff9679) and eleventh (5bf7efd) rounds (ADR 0067): 3
  proposals, 2 worth keeping; 0 of 7 rules found — the same for both rounds.** 340 fresh prompts (7 durable, 48 maybe),
  labelled apart and landed after the eleventh round was frozen, each round run once with `memory_review/extract/`
  checked equal to its commit. Kept: "Never use fixed Y-positions;" (in a component spec, a layout rule the person
  restates) and held-out 26's "… usernames persist till the end of time and never fade away …" (a design rule). Not
  kept: "great, the following is just some things to keep in mind moving forward, …: [Pasted text #1 +263 lines]" —
  the rule is in the pasted text, which the history does not hold. Missed, all seven: three pasted "scope rules"
  briefs ("You are ONLY permitted to work within this directory … DO NOT WRITE outside", read as a pasted document or a
  role brief and skipped), "The most important rule going forward:" with its rule in the next lines of a long brief,
  "push everything to github under my username only, no reference of yours", a note for CLAUDE.md on how subagents
  live per directory, and "you need to understand username as single source of truth". Fresh record then: 16 of 51
  (31%); since the hold 9 of 22; recall of fresh rules 0 of 7 here, and 1 of 3 on held-out 16 to 23.
- **The eleventh round (ADR 0067), frozen before held-out 25 and 26 were read,** takes the tenth round's two fresh
  mistakes as classes, each with near misses in `test_heuristic_round11.py`: the lines of a program's report in the
  person's slot (three or more "Field: value" lines in a run, most of them data: "Config valid: true") are not the
  person's words, however often they come back; "always / never show" with the thing shown left out and a place right
  after the verb ("always show on line before, even 1 file") is a spec, like "always show the spinner". No other row
  changed; the shared sessions still get nothing.
- **Judged 1 and held-out 24, a second measure of the frozen tenth round (2ff9679, ADR 0066): 3 proposals, 1 worth
  keeping.** Judged 1 (740 prompts of aider's author, downloaded whole): 2 proposals — "Use `GitTemporaryDirectory`",
  said in three sessions and asked for in seven (both judges of record: maybe, a test convention of the project), and
  "Always show on line before, even 1 file" (both: one-off, how one part of the screen behaves). Held-out 24 (4
  prompts): 1 proposal, not worth keeping — "use GitHub source when docs are insufficient.", a line of the status
  report a setup helper appends to each of the person's requests, so the same words came back in three sessions. The
  first two judges, whose sheet lacked the rest of the history, would have kept 1 and 0 of judged 1's two (ADR 0066).
  Fresh record then: 12 of 45 proposals worth keeping (27%); the tenth round 2 of 4 on 1,409 fresh prompts.
- **Held-out 20 to 23, the measure of the frozen ninth (5b8760f) and tenth (d32e8f4) rounds (ADR 0065): 1
  proposal, worth keeping; 1 of 2 rules found — the same for both rounds.** 665 fresh prompts (2 durable, 53 maybe),
  labelled apart and landed after both rounds were frozen, each round run once with `memory_review/extract/` checked
  equal to its commit; held-out 23 (188 prompts, later stretches of four of the same people) gave no proposal. The
  proposal is held-out 20's "I dont like nested types, and I like all types to have their own file" (a durable rule,
  "I don't like"). The miss is held-out 21's
  "请注意，这个是一个微信小程序，用户没有任何的API Key。…"
  (the users have no API key: keys are set on the back end), a project fact with no signal word. Four prompts hold a
  reminder cue word ("told it to analyze", "the one you said earlier … was normal", "I mistakenly said") and none is a
  reminder: the tenth round proposed none of them, and its kind was not exercised. **Fresh record of frozen rounds,
  each once on the splits labelled for it: 11 of 42 proposals worth keeping (26%); since the hold of ADR 0059: sixth 1
  of 6, seventh 0 of 3, eighth 1 of 2, ninth 1 of 1, tenth 1 of 1 — 4 of 13, the last two rounds right both times on
  665 fresh prompts but with one proposal between them, too few to say the goal (6 of 10) is met.**
- **The tenth round (ADR 0065), frozen before held-out 20–22 were read:** a person reminding the agent of a rule it did
  not keep ("I told you to make sure any changes you did would not cause issues with the program.", "In terms of todo,
  I remind you the main directive that we rely on task-master, not in a file.", "… like you were supposed to", "I'm on
  Ubuntu 22.04. You should know this...") is proposed at once, with the rule as its body: on the seen splits 9 of the
  10 prompts with such a cue were worth keeping and the ninth round proposed one. Not a job ("I told you to fix the
  login bug"), not a referent of the chat ("I told you the file is in src"), not named code, not "now". Four rules
  more are found on the seen splits (dev 2, dev 4, dev 10, dev 15), no mistake added, and the shared sessions still
  get nothing.
- **The ninth round (ADR 0064), measured on held-out 20–23 (above):** a bare "use X" (a tool or way chosen, no signal
  word) is held back and proposed when said in a second session — dev 19's "Use uv pip" / "USE "uv pip"!" / "USE "uv
  pip"!!!" in three chats is now one proposal and 3 of its 5 rules found; the same whole message opening a new chat is
  a re-send, not a second occasion, for this kind; "we use" inside what the person asks to ensure is a spec. Held-out
  15 gains a second proposal worth keeping; no other row changed. The search index's look-ups ran out before a split
  could be labelled after it in its own session; held-out 20–22, labelled in the next, measure it.
- **Held-out 19, a third measure of the frozen eighth round (ADR 0063): 1 proposal, not worth keeping; 0 of 5 rules
  found.** The proposal: "Ensure that a search without `-e` parameter, we use the `best` preset" ("we use" in a spec
  of the command's default). The misses are the repetition the issue calls the strongest signal, said with no signal
  word: "Use uv pip", "USE "uv pip"!" and "USE "uv pip"!!! …" in three chats on three days and "Use `uv pip ...`
  not `pip ...`" in a fourth; and "To avoid pagination pass through |cat", "Periodically run `python ./cleanup.py
  status` …". The sixth and seventh rounds gave the same. **Fresh record of frozen rounds: 9 of 40 (23%); since the
  hold of ADR 0059, 2 of 11.**
- **Held-out 15 and 16, the measure of the frozen eighth round (1c19f80, ADR 0063): 1 proposal, worth keeping;
  both rules missed.** 226 prompts (2 durable, 55 maybe), labelled and landed before any heuristic ran on them, the
  round run once as frozen. The proposal is held-out 15's person's restated wish "And do not cause errors in Lint and
  Release.", proposed because it was said again in another session; held-out 15 is a later stretch of held-out 12's
  person, so it is fresh text but not a new person. The missed rules carry no signal word ("I told you to make sure
  any changes you did would not cause issues with the program."; a project's principles given to a spec-kit command).
  The sixth and seventh rounds, run on both once for comparison, gave the same. **Fresh record of frozen rounds: 9 of
  39 proposals worth keeping (23%); since the hold of ADR 0059, 2 of 10. The goal, 6 of 10, is not met**, and the
  rounds now propose little on fresh data: what is left is mostly recall of rules said without a signal word, the job
  of a model extractor (`--extractor claude|codex|gemini`).
- **Held-out 12, 13 and 14, the measure of the frozen sixth and seventh rounds (ADR 0062): 1 of 6 and 0 of 3
  proposals worth keeping.** Three fresh splits with some rules in them (397 prompts, sixteen people, 3 durable and
  60 maybe), each labelled and landed before any heuristic ran on it, each round run once with
  `memory_review/extract/` exactly as frozen. The sixth round (11fa775): held-out 12, 2 proposals, 0 worth keeping
  ("always display reasonably populated button groups" in a terse list of what one screen should do; "use the
  linking method we use in …", "we use" pointing at code already there), its durable rule missed ("I told you any
  changes that you make should not cause issues with the program.", a weak "should not" held back); held-out 13, 1
  of 1 ("Don't push code and make PR's unless i specify this."); held-out 14, 0 of 3. The seventh round (bdd79cc,
  tuned on held-out 12 and 13): held-out 14, 0 of 3 — two rules of a role prompt the person pasted ("You are a
  Principal UI Architect, … Never produce a pixel-perfect clone.") and "Would it be possible to … always closed by
  default", a request. Held-out 14's one rule, a Chinese how-to ("to build, use the WSL script …"), was missed by
  every round. The sixth round held back every weak prohibition the earlier rounds proposed on these splits (10, of
  which 2 were worth keeping). **Fresh record of frozen rounds, each round once on the splits labelled for it: 8 of
  38 proposals worth keeping (21%). The goal, 6 of 10, is not met.**
- **The seventh and eighth rounds (ADR 0062, 0063)** tuned on those three splits' mistakes, class by class, with near
  misses in `test_heuristic_round7.py`: "we use" after a noun points at code; "always / never" + a verb of display +
  a screen element is a spec with or without an article; a weak rule the person says was given before ("I told you",
  "as I said", 我说过) is not held back; a pasted role prompt ("You are a …" and "Your mission is …" on lines of their
  own) is a brief for one task; "would it …" asks. No row of an earlier split changed.
- **Held-out 11, the measure of the frozen sixth round (11fa775): no proposal, so no mistake, and no precision
  to judge it by.** The split (172 prompts, one person, aider's author building aider; no durable rule and 2 maybe)
  was labelled and landed before any heuristic ran on it; this page is the first run on it, with
  `memory_review/extract/` exactly as frozen. The frozen fifth round (8733133), which never saw it either, run on
  it once as well: 2 proposals, neither worth keeping ("Do not connect blue dots.", a spec of one chart; "Don't use
  TAGs_CACHE, use self.map_cache", one edit's named code). Both are of the kinds the sixth round holds back (a weak
  prohibition alone), and it proposes neither. A split with no durable rule can show that a round makes no
  mistake, not that 6 of 10 of its proposals are worth keeping: **whether the sixth round meets the goal is not
  measured yet**; it needs a fresh split with standing rules in it. The fresh record so far: second to fifth
  rounds 7 of 27 worth keeping (26%) on the splits frozen after them; fifth round 0 of 2 and sixth round 0
  proposals on held-out 11.
- **The sixth round (ADR 0059) is frozen (11fa775) before held-out 11 is measured; every row above is a split it has
  seen, so none of them measures the goal.** It was aimed not at held-out 10's sentences but at the kinds of finding
  that failed on every fresh measurement so far. Of the 27 proposals the second to fifth rounds made on splits they
  had never seen (7 worth keeping), by the kind of signal that made them:

  | kind of finding | kept | mistakes |
  |---|---|---|
  | a standing word addressed to the agent ("never", "in the future", "we're using …, keep that in mind") | 3 | 0 |
  | a weak prohibition about what reaches git ("Do not merge," "do not touch main.") | 2 | 0 |
  | a weak prohibition alone ("don't", "do not", "avoid", "stop", "should not", 不要), not about git | 2 | 13 |
  | an occasion standing in for "from now on" ("whenever you", "as you work", "by default") | 0 | 3 |
  | Chinese "always" (始终) with no person in the sentence | 0 | 3 |
  | a bare "prefer X" | 0 | 1 |

  The last four kinds are now **held back**: classified, kept aside like named code (ADR 0046, 0057), and proposed
  only when the person says them in a second session or corrects the agent twice. An explicit standing word
  ("never", "always", "from now on", "going forward", "in the future", "next time", "remember", "we use", "I prefer",
  "in this repo", 以后 …), a rule about git, a rule asked to be written into an instruction file and anything said
  again in another session are still proposed at once. Read over those 27, the rule would have proposed 5, all
  worth keeping, and held back 2 that were; that is the data it was drawn from, not a measurement. Held-out 10's
  classes are also dropped as classes (`test_heuristic_round6.py`, each with near misses): a coding tool's own
  message in the person's slot (Cursor's plan hand-off), "if I …, it should (not) …" (the program answering the
  person), a rebuke with a "don't" ("Dont be dumb"), an element of the screen as the subject of 不要
  ("搜索框不要占据高度"), and in English "always / never show the <element>" and "I don't like the <thing>".

  **The cost is recall.** Over all seen splits, before (8733133) 45 proposals with 40 worth keeping and 29 of 41
  durable rules found; after, 28 with 28 and 21 of 41. Lost, each held back until said again (dev 2's, held-out 2's
  and held-out 3's paraphrased): dev 2 "Do NOT change my files outside of …", "Do NOT build a product that chases
  venture funding …", "As you build features, decide which tests are worth writing …" and "Use a lockfile-pinned
  toolchain … repeatable by default"; held-out 2 "prefer the MCP server's tools"; held-out 3 "note that, in the output
  package, every required variable should be … written into setup_env.sh"; dev 5 "for this teach and all the ones
  afterwards, … don't use the code examples …"; dev 10 "Do not reinit task-master, we don't want to lose the history
  …". Gained: held-out 2's "未经我允许，不要开始" (paraphrased; said in two sessions). Held-out 11 measures the round
  once.
- **Held-out 10 below is the measurement of the fifth round, as it was; the sixth round has since tuned on it.**
- **Held-out 10, the honest measure of the frozen fifth round (8733133), misses the goal: 6 proposals, 1 worth
  keeping (17%), 1 of its 2 durable rules found.** The split was labelled and landed before any heuristic ran on
  it; this page is the first run on it, with `memory_review/extract/` exactly as frozen, and nothing was changed
  after it.
  - *kept (1):* "Do not reinit task-master, we don't want to lose the history of tasks we have worked on".
  - *the mistakes (5):* two lines of the message Cursor itself sends when a plan is accepted ("Mark them as
    in_progress as you work, starting with the first one.", "Don't stop until you have completed all the
    to-dos."), which the export puts in the person's slot; a Chinese spec of one dialog's search box
    ("Agent 对话框详情页的搜索框不要占据高度，…"); a spec of the app said with "I" as its subject ("If i sign out my
    account on my phone it should not sign out my account on my laptop"); and "Dont be dumb".
  - *the miss (1 rule):* "I remind you the main directive that we rely on task-master, not in a file." (no signal
    word the heuristic reads).
- **Every fresh measurement so far, each of a round frozen before it: held-out 5 4 of 11 (second round), held-out
  6 0 of 2 (third), held-out 7–9 2 of 8 (fourth), held-out 10 1 of 6 (fifth): 7 of 27 (26%) in all. The goal (6 of
  10 worth keeping on held-out data, the clearly durable rules found) is not met by the heuristic.** Each round
  removes the classes of mistake it was shown, and each fresh split brings classes none had seen (a tool's own
  message in the person's slot, a spec phrased in another language or with another subject). The seen rows show
  what the rounds were tuned to do, not what they do on new histories.
- **Every row above has been seen: the fifth round (ADR 0058, frozen at 8733133) was tuned on held-out 7, 8 and 9
  (now *dev7*, *dev8* and *dev9*), and was then measured once on held-out 10 (above), a fresh split labelled apart
  that the round never read.**
  Apart from held-out 10, no figure on this page measures the goal. The round's changes, each a class tested with a
  real prompt and near misses in `test_heuristic_round5.py`:
  - 始终 / 总是 / 永远 / 一直 ("always") followed by a state ("…始终有效", is valid, stays, equals, is empty) is how
    one thing of the program behaves; followed by "is" or "show / hide" it is a spec when the sentence names a
    window, control or code identifier of the program ("请始终显示Window_CraftList和Window_CraftStatus窗口"). The
    English "it should always …" has been read this way since round 4. "回答时始终使用中文", "提交信息始终是英文" and
    "总是为新功能添加测试" still stand;
  - 不要显示 / 别显示 ("don't show") forbids one thing of the screen, kept aside like "don't show the banner" until
    said in a second session;
  - "by default" after an edit of a thing ("Adjust the system prompt to *by default* generate …", "make it use dark
    mode by default") is that thing's default, not the agent's; "By default, answer in English" stands;
  - a short request with a "Constraints:" / "Requirements:" head over three or more items is a task spec like a long
    one: its weak "avoid …" is the job's ("Avoid unnecessary implementation logic—focus on scaffolding …");
  - **a rule the person asks to write into an agent instruction file** (CLAUDE.md, AGENTS.md, GEMINI.md,
    CONVENTIONS.md, .cursorrules and Cursor's rules, Copilot's instructions, .windsurfrules, .clinerules; English and
    Chinese) is proposed as the text that follows the request, in quotes, after a colon or on the lines below,
    whatever its words: "@rules/ add to cursor rules "in all coded files add comments …"" and dev 6's "add markdown
    file conventions to CONVENTIONS.md" with its three lines are found. "Add it to copilot instructions" (nothing
    after) gives nothing.

  Seen splits, before → after: dev 7 5 proposals, none worth keeping → no proposal; dev 8 2 of 3 → 3 of 3, its 2
  rules found (from 1); dev 6 no proposal → 3 of 3, 1 of its 2 rules found (from none); dev 9 and every other split
  unchanged; the shared real Claude Code sessions still give no proposal. All splits together: 35 of 41 worth keeping
  (85%) and 26 of 39 rules found before, 39 of 39 and 28 of 39 after. Still missed on dev 7: the Chinese task list
  closing with the project's rules ("注意事项：" num_workers stays 0 on Windows …): a "Notes:" head over a task's
  items is the same shape as the "Constraints:" the round reads as the job's, and no word tells them apart.
- **Held-out 7, 8 and 9 below are the measurement of the fourth round, as it was; the fifth round has since tuned on
  them.**
- **Held-out 7, 8 and 9, the honest measure of the frozen fourth round (52bcc4c), miss the goal: 8 proposals,
  2 worth keeping (25%), and 1 of their 3 durable rules found.** The three splits (481 prompts from thirteen
  people no round had seen) were labelled and landed before any heuristic ran on them; this page is the first
  run on them, with `memory_review/` exactly as frozen, and nothing was changed after it.
  - *the mistakes (6):* four from one person's Chinese aider sessions building an RPG Maker XP plugin, each a
    spec of how one window or recipe behaves that carries 始终 ("always"): "始终显示Window_CraftList和
    Window_CraftStatus窗口…", "在Window_CraftCommand激活时，不显示…", "Window_craftnumber变化的基数应该始终是…的倍数",
    "如果未设置则此合成配方始终有效。" The fourth round reads "should always / never" said of one thing of the
    program as a spec in English only. One is an instruction for the audit at hand ("Avoid unnecessary
    implementation logic—focus on scaffolding and modular integrity."), and one a change to the program's own
    system prompt ("Adjust the system prompt to *by default* generate photorealistic images …"), where "by
    default" describes the program, not the agent's work.
  - *kept (2):* "Fetch the docs for Gemini API, we're using the Free Tier, keep that in mind." (durable: a fact
    about the project that outlives the task) and "Make sure you DO NOT make such dumb mistakes in the future"
    (maybe).
  - *the misses (2 rules):* a task list in Chinese closing with the project's rules (num_workers stays 0 on
    Windows, no batch-size cuts for TTA, full type hints), and "@rules/ add to cursor rules \"in all coded files
    add comments … with arabic description if available\"", a rule handed to another tool's rule file: neither
    has a signal word the heuristic reads.
  - Held-out 9 (181 prompts, no durable rule, 50 maybe, most of them one person's repeated "use front end
    design skills") gets no proposal, which is no mistake; held-out 8 gives 2 of 3.
- **Fresh data after the fourth round: 2 of 8 proposals worth keeping. The goal (6 of 10 worth keeping, the
  clearly durable rules found) is not met on fresh data.** Every fresh measurement so far, each of a round
  frozen before it: held-out 5 4 of 11 (second round), held-out 6 0 of 2 (third), held-out 7–9 2 of 8
  (fourth). The seen rows above show what the rounds were tuned to do, not what they do on new histories.
- **The fourth round (ADR 0057) is frozen before held-out 7 and 8 are measured; every row above is a split it
  has seen, so none of them measures the goal.** It was tuned on held-out 6 (now *dev6*) and the dev splits.
  Its changes are aimed at classes of sentence, each tested in `test_heuristic_round4.py` with near misses,
  and most of them live in `memory_review/extract/task_at_hand.py`:
  - a weak "do not" whose object is the thing being edited ("DO NOT CHANGE the contents.", "don't touch it",
    "anything else") is no memory;
  - one that forbids one definite thing ("don't show the banner") is kept aside like named code, until it is
    said in a second session or corrected twice;
  - "should not / should always / should never" said of one thing of the program is a spec;
  - "update NOTES.md … and note that …" is text to write;
  - some idioms and descriptions carry a signal's words: "whenever you're ready", "each time you run it, it
    …", "by default the page shows …", "from now on, work on the frontend", "I prefer option B", a status
    ("the staging server is down"), and "we use X, move it to Y";
  - a block pasted after "the console shows an error:" is not the user's;
  - a bare "OK, going forward." takes the sentence it introduces.

  Before the round (c6d9887), all splits together gave 33 of 36 proposals worth keeping (92%). After it they
  give 33 of 33, with the same 25 of 36 rules found. Dev 6 goes from 2 mistakes to no proposal, and held-out 3
  from 6 of 7 to 6 of 6. The held-out 2 proposal that quoted only "OK, going forward." now quotes the rule after
  it. The rules found did not change, so the round lost none of them here. On fresh data it will lose some:
  "don't mock the database in integration tests" is now a definite thing, kept aside until said again.
- **Held-out 6, the honest measure of the frozen third round (4501c0a), misses the goal: 2 proposals, neither
  worth keeping (0%), and neither of its 2 durable rules found (0%).** The split (39 prompts from two people's
  aider histories) was labelled and landed (1b74601) before any heuristic ran on it; this page is the first run
  on it, with the heuristic as frozen (the later commits under `memory_review/extract/`, 50d25bc and af10eda,
  change only `siblings.py`, which the Codex Stop hook uses and this set does not), and nothing was changed
  after it. It is a small split, two rules, so it is a thin measure; it is still the only one the third round
  never saw.
  - *the mistakes (2):* "DO NOT CHANGE the contents." and "DO NOT CHANGE content of list items.", from "In
    CONVENTIONS.md , reorder the lists. DO NOT CHANGE the contents." and the same request sent again in the
    next session. Both are limits on one edit (reorder this file's lists, do not reword them). Read alone, a
    capitalised "DO NOT" looks like a rule, but "the contents" and "list items" point back at the task.
  - *the misses (2 rules):* one person's Markdown style, stated twice: "make sure each sentence or long phrase
    in a sentence is on a new line in markdown" (inside a request to suggest changes), and, a session later,
    "Ensure each sentence or long phrase is on its own line. / Bullet lists use the - marker and there's one
    space after the marker. / For numbered lists, pad the `1.` marker …" (the lines of a request to write
    those rules into CONVENTIONS.md). Neither has a signal word ("always", "from now on", "in this repo"). The
    two statements come from two sessions but in different words, so repetition across sessions does not
    catch them. The maybe ("Be sure to be concise in the changes you make.") is not proposed.
  - What held-out 6 is made of: one person's aider sessions on a TypeScript monorepo (23 prompts: questions
    about the repository, CONVENTIONS.md edits, three aider watch-mode templates around an `AI?` code comment)
    and one person's aider session debugging nginx and Docker (16 prompts, no rule). The shared real Claude
    Code sessions still give no proposal.
- **Held-out 6 below is the measurement of the third round, as it was; the fourth round has since tuned on it.**
- **Fresh data after the third round: held-out 6 is the only split the round never saw, and it gives 0 of 2
  proposals worth keeping and 0 of 2 rules found. The goal (6 of 10 worth keeping, the clearly durable rules
  found) is not met on fresh data.** The seen rows (dev 4 and dev 5, 7 of 7 worth keeping, 7 of 10 rules
  found) show what the round was tuned to do, not what it does on new histories.
- **Held-out 5, the bigger honest measure of the frozen second round (4be812b), misses the goal: 4 of 11
  proposals worth keeping (36%), 3 of its 8 durable rules found (38%).** The split (363 prompts from three
  people) was labelled and landed (b4ab72f) before any heuristic ran on it; this page is the first run on it,
  with the heuristic as frozen (later commits to `memory_review/extract/` touch only the transcript readers,
  which this set does not use), and nothing was changed after it.
  - *worth keeping (4):* "you should NEVER overwrite a vault node without consulting an AUTHORITY"; "(for this
    teach and all the ones afterwards, if there are no examples in the code, then just create some, don't use
    the code examples when they are not there …)"; and "Do not merge," and "do not touch main." as two
    proposals: the user's rule is one sentence hard-wrapped over two lines, and the heuristic reads each line
    as a sentence, so the rule is found but cut in half.
  - *the mistakes (7):* five come from two long task specs of one person, hard-wrapped at 80 columns and
    read line by line: from one, "Do not patch this per-weapon or per-animation-state;", "For the aim fix,
    prefer the derived-value approach over a per-weapon" (half a sentence) and "Do not stop to ask me
    clarifying questions, including any /grill-me-style" (for "tonight's run" only); from the other, "Do not
    interrogate me with clarifying questions before starting." and "Do not implement anything — this is
    audit and recommendation". All five are negative imperatives or preferences about the task at hand ("this",
    "the aim fix", "before starting"). Then a time budget for one job ("You have 30 minutes max, if you do not
    complete this then stop trying to install everything."), and a passage from a novel pasted as a role-play
    cue ("Respond to all of our guests whenever you hear that ring!"), taken for a rule.
  - *the misses (5 prompts, 3 rules):* "please do not commit the .dmg files or the large image files" and
    "please commit with a message after you create each phase for each app and push it" (one prompt sent
    twice), "Please make smaller commits, like 2 to 3 files change, and push them so I can see what changes you
    are making" (inside a long task, sent twice in one session, so no repetition across sessions), and "for
    the ones where you are using online articles for teaching, please footnote and link them.": standing
    habits stated in the middle of a request with no signal word ("always", "from now on", "in this repo").
  - What held-out 5 is made of: one person's Claude Code history over several projects (220 prompts, 102 of
    them `/teach …` lessons, `/drill-me …` and `/btw …` questions, and a few long, hard-wrapped task specs),
    one person's Claude Code and Codex histories of an Obsidian vault (142 prompts, mostly
    role-play and pings between the person's agents), and a one-prompt Korean Codex history. The shared real
    Claude Code sessions still give no proposal.
- **The honest pair, held-out 4 and 5 (the splits the second round never saw): 5 of 13 proposals worth
  keeping (38%), 3 of 10 durable rules found (30%).** On fresh data the goal (6 of 10 worth keeping) is not
  met, and most durable rules are stated without a signal word. **All five held-out splits together: 22 of 31
  (71%), 13 of 24 rules found (54%)**, but held-out 2 and 3 were looked at to aim the second round, so only the
  pair above is a measurement.
- **Held-out 4, the only honest measure of the second round (ADR 0049), is too quiet to meet or miss the
  goal: 2 proposals in 165 prompts, 1 worth keeping (50%), and neither of its 2 durable rules found.** The
  heuristic as it was before the round (main at 2b60960) gets exactly the same: the round neither helped nor
  hurt here, because none of the patterns it changed occurs in held-out 4. The split was labelled and
  committed (2b60960) before any heuristic ran on it; this page is the first and only run on it, made after
  the round was frozen (4be812b), and nothing was changed after it.
  - *the mistake (1):* "Yes, commit the changes then update the README and commit that before moving forward
    with more features/tasks." "moving forward" here means carrying on, and the heuristic reads it as "from now
    on". A known limit now, not fixed: fixing it after seeing it would make held-out 4 a dev split.
  - *the proposal worth keeping (1):* "After each device is added, update the changelog and system_notes.md
    files, help files, and commit changes as you go." (labelled maybe: the user's commit-as-you-go habit,
    stated inside a task).
  - *the misses (2):* a fact about the user's machine without any signal word ("I'm on Ubuntu 22.04. You
    should know this... I'm not headless"), and a test-running rule inside an unpunctuated run-on request
    ("make sure you test only one at a time to have the smallest possible outputs and minimize costs …"): "make
    sure you" is a reminder, which alone is never enough.
  - What held-out 4 is made of: one person's long history (115 prompts, most of them "yes", "continue" and
    feature requests for a GUI), and five spec-kit or short histories whose long command expansions (English
    and Chinese, full of MUST and 必须) are pasted documents and give nothing, correctly.
- **All four held-out splits before held-out 5: 18 of 20 proposals worth keeping (90%), 10 of 16 durable
  rules found (62%)**, from 16 of 25 (64%) and 8 of 16 before the round. Read this with care: held-out 2 and 3 are no
  longer held out for this round. Their mistakes named the error classes the round was aimed at (the brief
  listed them as general patterns, and each change was tuned and tested on dev prompts and on sentences
  written to the pattern, never on a held-out sentence), so their gains are expected, not measured:
  - held-out 2: 9 of 9 worth keeping (from 7 of 12), 7 of 10 rules found (from 5): the weak 必须 in task
    specs and "we are using" / "we support" in descriptions are no longer proposed; "When the MCP connection
    drops always reload …" and "Prefer the MCP server's tools" (paraphrased) are now found. Still missed: a
    reminder without a durable word ("Please be sure to check each edit once you've made it", paraphrased) and two
    Chinese rules without a signal word.
  - held-out 3: 6 of 7 worth keeping (from 6 of 9), 3 of 3 found: "in future ubuntu releases" and the spec's
    "--bundle-dir will by default read from …" (paraphrased) are no longer proposed; "note that our next task is …"
    (paraphrased) inside a task still is (not among the round's classes).
- **Dev 2 and dev 3** (tuned on): dev 2 8 of 8 worth keeping and 7 of 9 rules found (from 6 of 7 and 6 of 9):
  "By default, hold the output and emit it … Make this configurable." (paraphrased) is a spec of the program, no
  longer proposed; "You should be using the subagents you have for this work." (paraphrased) is found. Dev 3 1 of 1
  and 1 of 1 (from none): "对话时使用中文" (talk to me in Chinese) is found; its spec-kit plans and specs, with their
  many 必须, give nothing. Still missed on dev 2: a rebuke ("If you had been handing this to the UI subagent like you
  were supposed to, …", paraphrased) and a commit rule inside the user's own 17-line change list, taken for a pasted
  document.
- What the second round changed (ADR 0049, each a test in `test_heuristic_round2.py` from a real dev prompt
  where the dev splits hold one, with near misses): a bare 必须 states a rule only when it covers every case
  (所有, 每次, 任何, 一律 …); "we use / we support" inside a "that / like / if / whether" clause states no
  convention; "in future <noun>" is an adjective; "When X, always Y" is a rule unless the clause tells what
  happened ("when I run it it always fails"); a bare "prefer X" is a preference; "will by default", "enabled by
  default" and a default the same message makes configurable describe the program; "you should be using X" and
  the language to talk in ("对话时使用中文", "reply in English") are rules. The shared real Claude Code sessions
  still give no proposal.
- Real histories are mostly task talk: 25 durable rules in 750 prompts of dev 2 and 3 and held-out 2 to 4,
  about one in 30, against one in the 88 prompts of dev and held-out. With so few, a split of 165 prompts gives
  a precision of 2 proposals: the goal (6 of 10 worth keeping) can only be judged over all held-out splits,
  and honestly only over splits the round never saw.
- The first round's figures (ADR 0044), for the record: held-out 2 7 of 12 (58%), 5 of 10 rules found;
  held-out 3 6 of 9 (67%), 3 of 3; all three held-out splits 15 of 23 (65%), 8 of 14.
- The first held-out split: the one clearly durable rule is missed ("Make sure at the end, we pass ruff,
  mypy and all pytests. If you change something that can influence the quality of results, test for real
  …" states standing rules without any signal word); both proposals are ones a reviewer could keep.
- Rules without any signal word, facts about the user's machine and rebukes are what the model extractors
  (`--extractor claude|codex|gemini`) are for; they are not measured here (this set runs offline, with no
  model). `python -m tools.model_eval --extractor claude` measures one on every held-out split with your own login
  and judges it as this page judges the heuristic (ADR 0156; `--dry-run` counts the calls: 254 for the 251 held-out
  splits, 1.6 million characters). No model could be run where these figures are made, so there are no model
  figures yet.
- Recall on clearly signalled rules is measured by the hand-written table in
  `tests/memory_review/extract/test_extract_signals.py` (38 durable sentences in English and Chinese,
  all found, and 34 one-off sentences, none proposed), `test_extract_precision.py` (named one-offs,
  rules that generalise, whole rules, a rule with a task tacked on, pasted and quoted text, repetition
  across sessions) and `test_heuristic_round2.py`, `test_heuristic_round3.py` and `test_heuristic_round4.py`
  (each round's classes, each with near misses).
- What the first dev split taught (ADR 0033, each a test): a hook's notice in the user slot ("To suppress
  this warning in future sessions, run:") is a lead-in, not a rule; "can we use `checkpointID` instead of
  `cpID` in cmd/entire/cli/session.go" proposes, it does not state; skills, slash-command expansions,
  aider's architect plans and compaction summaries arrive as user messages and are pasted documents.
"""


def render(text: str) -> str:
    """The whole docs/extraction.md page around the figures."""
    return DOC_HEAD + text + "\n" + DOC_TAIL


def figures() -> str:
    rows = [evaluate_split(name) for name in SPLITS]
    data = shared_data_dir()
    if (data / "transcripts").is_dir():
        rows.append(evaluate_shared(data))
    return report(rows)


def main(argv: list[str] | None = None) -> int:
    return figures_page.main(argv, __doc__, figures, render)


if __name__ == "__main__":
    raise SystemExit(main())
