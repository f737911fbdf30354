#!/usr/bin/env bash
# Make the log-store samples in tests/data/logs/ with the real tools (README: "Logs").
#
#     scripts/make-log-samples.sh [OUT_DIR] [TOOLS_DIR] [STEP...]
#
# OUT_DIR defaults to tests/data/logs, TOOLS_DIR (where the tools are installed) to
# target/log-tools; STEPs (llm, inspect, promptfoo) default to all three. Installs, pinned:
#   - llm 0.36 and its llm-echo 0.5 plugin (PyPI), in a venv: the `echo` model answers a
#     prompt of {"raw": "TEXT"} with TEXT verbatim; and llm 0.27.1 with llm-echo 0.4 in a
#     second venv, for a database of the older layout (`responses`);
#   - inspect-ai (PyPI), same venv: `mockllm/model` answers with the outputs it is given;
#   - promptfoo 0.120.0 (npm; later versions want Node >= 22): its `echo` provider answers
#     with the rendered prompt verbatim.
# Each tool then logs a few outputs of the shapes jxray tells apart (clean, fenced,
# truncated, invalid, prose), and the logs are copied into OUT_DIR. Needs python3 (3.10+),
# node and npm. Nothing outside TOOLS_DIR and OUT_DIR is written (HOME is a throwaway).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/tests/data/logs}
tools=${2:-$root/target/log-tools}
mkdir -p "$out" "$tools"
out=$(cd "$out" && pwd)
tools=$(cd "$tools" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work/home PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1
mkdir -p "$HOME"

# The outputs every tool logs: what models write, good and bad.
write_outputs() {
cat > "$work/outputs.json" <<'EOF'
[
  "{\"city\": \"Paris\", \"population\": 2102650}",
  "Here you go:\n```json\n{\"city\": \"Oslo\", \"population\": 709037}\n```\nAnything else?",
  "{\"city\": \"Lima\", \"population\": 10004141, \"districts\": [\"Miraflores\", \"Barranco\",",
  "{'city': 'Rome', 'population': 2748109}",
  "I'm sorry, but I can't help with that request."
]
EOF
}

install_python() {
if [ ! -x "$tools/venv/bin/llm" ] || [ ! -x "$tools/venv/bin/inspect" ]; then
    python3 -m venv "$tools/venv"
    "$tools/venv/bin/pip" install --quiet 'llm==0.36' 'llm-echo==0.5' 'inspect-ai==0.3.285'
fi
if [ ! -x "$tools/venv-legacy/bin/llm" ]; then
    python3 -m venv "$tools/venv-legacy"
    # llm 0.27.1 imports httpx without declaring it.
    "$tools/venv-legacy/bin/pip" install --quiet 'llm==0.27.1' 'llm-echo==0.4' httpx
fi
}

install_promptfoo() {
if [ ! -e "$tools/npm/node_modules/.bin/promptfoo" ]; then
    mkdir -p "$tools/npm"
    (cd "$tools/npm" && npm init -y >/dev/null && npm install --no-audit --no-fund promptfoo@0.120.0 >/dev/null)
fi
# promptfoo 0.120.0 looks for its migrations at the package root; they ship in dist/.
package=$tools/npm/node_modules/promptfoo
[ -e "$package/drizzle" ] || ln -s dist/drizzle "$package/drizzle"
}

py=$tools/venv/bin/python
llm=$tools/venv/bin/llm
promptfoo=$tools/npm/node_modules/.bin/promptfoo

make_llm() {
install_python
export LLM_USER_PATH=$work/llm
mkdir -p "$LLM_USER_PATH"
"$py" - "$work/outputs.json" "$llm" <<'EOF'
import json, subprocess, sys
outputs = json.load(open(sys.argv[1]))
for text in outputs:
    prompt = json.dumps({"raw": text, "prompt": "Give me the city as JSON."})
    subprocess.run([sys.argv[2], "-m", "echo", "--no-stream", prompt], check=True,
                   stdout=subprocess.DEVNULL)
EOF
# The echo model takes no --schema on the command line, so the calls that need more than a
# text go through llm's Python API, which logs them with the same code: a schema (marked as
# supported on this one model object), two tool calls, and a reasoning part before the text.
"$py" - <<'EOF'
import json, llm, sqlite_utils
from llm.migrations import migrate
db = sqlite_utils.Database(llm.user_dir() / "logs.db")
migrate(db)
model = llm.get_model("echo")
model.supports_schema = True
schema = {"type": "object", "required": ["city", "population"],
          "properties": {"city": {"type": "string"}, "population": {"type": "integer"}}}
calls = [
    ({"raw": "{\"city\": \"Kyoto\", \"population\": \"1.46 million\"}"}, {"schema": schema}),
    ({"raw": "", "tool_calls": [{"name": "lookup", "arguments": {"city": "Quito"}},
                                {"name": "lookup", "arguments": {"city": "Accra"}}]}, {}),
    ({"raw": "{\"city\": \"Hanoi\", \"population\": 8053663}"}, {"thinking": True}),
]
for prompt, options in calls:
    response = model.prompt(json.dumps({"prompt": "x", **prompt}), **options)
    response.text()
    response.log_to_db(db)
EOF
cp "$LLM_USER_PATH/logs.db" "$out/llm-logs.db"

# An older llm (before 0.32) keeps each response in the `responses` table instead.
export LLM_USER_PATH=$work/llm-legacy
mkdir -p "$LLM_USER_PATH"
"$py" - "$work/outputs.json" "$tools/venv-legacy/bin/llm" <<'EOF'
import json, subprocess, sys
for text in json.load(open(sys.argv[1]))[:3]:
    prompt = json.dumps({"raw": text, "prompt": "Give me the city as JSON."})
    subprocess.run([sys.argv[2], "-m", "echo", "--no-stream", prompt], check=True,
                   stdout=subprocess.DEVNULL)
EOF
cp "$LLM_USER_PATH/logs.db" "$out/llm-logs-legacy.db"
}

make_inspect() {
install_python
"$py" - "$work/outputs.json" "$work/inspect" <<'EOF'
import json, sys
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.solver import generate

outputs = json.load(open(sys.argv[1]))
# A long output: Inspect moves long strings into the sample's attachments.
outputs.append(json.dumps({"items": [{"sku": f"SKU-{n:04}", "note": "x" * 40} for n in range(40)]}))
stops = ["stop", "stop", "max_tokens", "stop", "content_filter", "stop"]
def output(text, stop):
    out = ModelOutput.from_content(model="mockllm/model", content=text, stop_reason=stop)
    # With usage given, mockllm does not count tokens with tiktoken, which would download
    # its encoding (no network here).
    out.usage = ModelUsage(input_tokens=5, output_tokens=len(text) // 4,
                           total_tokens=5 + len(text) // 4)
    return out
model = get_model("mockllm/model",
                  custom_outputs=[output(text, stop) for text, stop in zip(outputs, stops)])
task = Task(dataset=[Sample(input=f"city {n}", target="x") for n in range(len(outputs))],
            solver=generate())
eval(task, model=model, log_dir=sys.argv[2], display="none", max_samples=1)
EOF
eval_log=$(ls "$work"/inspect/*.eval | head -n 1)
cp "$eval_log" "$out/inspect-log.eval"
"$tools/venv/bin/inspect" log convert "$eval_log" --to json --output-dir "$work/inspect-json" >/dev/null
cp "$(ls "$work"/inspect-json/*.json | head -n 1)" "$out/inspect-log.json"
}

make_promptfoo() {
install_python
install_promptfoo
"$py" - "$work/outputs.json" "$work/promptfooconfig.yaml" <<'EOF'
import json, sys
outputs = json.load(open(sys.argv[1]))
schema = {"type": "object", "required": ["city", "population"],
          "properties": {"city": {"type": "string"}, "population": {"type": "integer"}}}
tests = [{"vars": {"raw": text}} for text in outputs]
tests[0]["assert"] = [{"type": "is-json", "value": schema}]
tests.append({"vars": {"raw": "{\"city\": \"Kyoto\", \"population\": \"1.46 million\"}"},
              "assert": [{"type": "is-json", "value": schema}]})
config = {"description": "jxray sample", "prompts": ["{{raw}}"], "providers": ["echo"],
          "tests": tests}
# JSON is YAML: no YAML library needed.
json.dump(config, open(sys.argv[2], "w"), indent=2)
EOF
(cd "$work" && "$promptfoo" eval -c promptfooconfig.yaml --no-cache --no-progress-bar \
    -o "$out/promptfoo-results.json" -o "$out/promptfoo-results.jsonl" >/dev/null) || true
[ -s "$out/promptfoo-results.json" ] || { echo "promptfoo wrote no results" >&2; exit 1; }
}

shift $(( $# > 2 ? 2 : $# ))
steps=${*:-llm inspect promptfoo}
write_outputs
for step in $steps; do
    "make_$step"
done
ls -l "$out"
