#!/usr/bin/env python3
"""Log outputs into an `llm` logs.db in WAL mode with llm's own code, and leave them in
the write-ahead log, as a writer does that is still running or was killed.

    PYTHON scripts/llm-wal-writer.py DB hold|crash [--tables-in-file] TEXT...

PYTHON is the python of the virtual environment scripts/install-test-tools.sh makes (llm
with its llm-echo plugin, whose `echo` model answers {"raw": TEXT} with TEXT). Checkpoints
are switched off, so every committed row stays in DB-wal; with --tables-in-file the tables
are checkpointed into DB first and only the rows are in the log, else the tables are in
the log too. Prints `ready` once every row is committed, then `hold` keeps the connection
open until standard input closes, and `crash` ends the process without closing it.
Set LLM_USER_PATH to a throwaway folder: llm keeps its settings there.
"""

import json
import os
import sys

import llm
import sqlite_utils
from llm.migrations import migrate

db_path, mode, *rest = sys.argv[1:]
tables_in_file = "--tables-in-file" in rest
texts = [text for text in rest if text != "--tables-in-file"]

db = sqlite_utils.Database(db_path)
db.enable_wal()
db.execute("PRAGMA wal_autocheckpoint=0")
migrate(db)
if tables_in_file:
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
model = llm.get_model("echo")
for text in texts:
    response = model.prompt(json.dumps({"prompt": "Give me the city as JSON.", "raw": text}))
    response.text()
    response.log_to_db(db)
print("ready", flush=True)
if mode == "crash":
    os._exit(0)
sys.stdin.read()
