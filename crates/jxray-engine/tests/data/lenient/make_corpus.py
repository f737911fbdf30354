#!/usr/bin/env python3
"""Write corpus.jsonl: broken model outputs, each with the value the model meant.

Synthesized for jxray's lenient reading, in the shapes that peer repair
libraries' test suites and issue threads describe (json_repair, jsonrepair,
BAML's parser) -- none copied. Every line is one case:

  {"family": ..., "input": ..., "want": <value>}    a value the model clearly meant
  {"family": ..., "input": ..., "refuse": "why"}    two plausible readings, code, or cut
                                                    off: no value may be given
  {"family": "valid", "input": ..., "want": ...}    valid JSON: must come back unchanged

Run: python3 crates/jxray-engine/tests/data/lenient/make_corpus.py  (deterministic; rewrites corpus.jsonl)
"""
import json
import os

BASES = [
    {"name": "Ada", "age": 36, "tags": ["math", "code"], "active": True},
    [{"id": 1, "ok": True}, {"id": 2, "ok": False}],
    {"user": {"id": 7, "email": "a@b.c"}, "scores": [1, 2, 3], "note": None},
    {"items": [{"sku": "X1", "qty": 2}, {"sku": "Y2", "qty": 1}], "total": 3},
    {"city": "Paris", "country": "France"},
    {"answer": "42", "confidence": 0.9},
]


def render(value, *, key=None, string=None, literal=None, number=None, ws=" ", sep=", ", colon=": "):
    """Serialize `value` with hooks that spell keys, strings, literals and numbers."""
    key = key or (lambda k: json.dumps(k))
    string = string or (lambda s: json.dumps(s))
    literal = literal or (lambda v: json.dumps(v))
    number = number or (lambda n: json.dumps(n))

    def go(v):
        if isinstance(v, dict):
            return "{" + sep.join(key(k) + colon + go(x) for k, x in v.items()) + "}"
        if isinstance(v, list):
            return "[" + sep.join(go(x) for x in v) + "]"
        if isinstance(v, str):
            return string(v)
        if isinstance(v, bool) or v is None:
            return literal(v)
        return number(v)

    return go(value)


cases = []


def case(family, text, want=None, refuse=None):
    line = {"family": family, "input": text}
    if refuse is not None:
        line["refuse"] = refuse
    else:
        line["want"] = want
    cases.append(line)


WRAPS = [
    lambda t: t,
    lambda t: "Here is the JSON you asked for:\n" + t + "\nLet me know if you need more.",
    lambda t: "```json\n" + t + "\n```",
]


def each(family, make, bases=BASES, wraps=WRAPS, refuse=None):
    """One case per base and wrapping, when the corruption applies to the base."""
    for base in bases:
        text = make(base)
        if text is None or text == json.dumps(base, separators=(", ", ": ")):
            continue
        for wrap in wraps:
            case(family, wrap(text), base, refuse=refuse)


def has(value, pred):
    if pred(value):
        return True
    if isinstance(value, dict):
        return any(has(v, pred) for v in value.values())
    if isinstance(value, list):
        return any(has(v, pred) for v in value)
    return False


# --- the first five families -------------------------------------------------
each("trailing-comma", lambda b: render(b).replace("]", ", ]").replace("}", ",}"))
each("single-quotes", lambda b: render(b, key=lambda k: f"'{k}'", string=lambda s: f"'{s}'"))
each("unquoted-key", lambda b: render(b, key=lambda k: k) if isinstance(b, dict) or has(b, lambda v: isinstance(v, dict)) else None)
PY = {True: "True", False: "False", None: "None"}
each("python-literal", lambda b: render(b, key=lambda k: f"'{k}'", string=lambda s: f"'{s}'", literal=lambda v: PY[v]) if has(b, lambda v: isinstance(v, bool) or v is None) else None)
each("comment", lambda b: "// the answer\n" + render(b, sep=", /* next */ ") if not isinstance(b, list) else render(b, sep=", # next\n"))

# --- issue 8 item 5 ---------------------------------------------------------------
def zero_pad(n):
    return "0" + json.dumps(n) if isinstance(n, int) and n > 0 else json.dumps(n)
# `036`: the number 36, or a code that keeps its zeros (`007`)? Two readings: none.
each("leading-zero", lambda b: render(b, number=zero_pad) if has(b, lambda v: isinstance(v, int) and not isinstance(v, bool) and v > 0) else None, refuse="the number or the digits as text")
case("non-finite-number", '{"ratio": NaN, "max": Infinity, "min": -Infinity}', {"ratio": None, "max": None, "min": None})
case("non-finite-number", 'Result:\n```json\n{"loss": NaN, "epoch": 3}\n```', {"loss": None, "epoch": 3})
case("non-finite-number", '[1.5, Infinity, 2]', [1.5, None, 2])
case("non-finite-number", '{"scores": [0.1, NaN], "best": "a"}', {"scores": [0.1, None], "best": "a"})
case("invalid-escape", '{"text": "it\\\'s done"}', {"text": "it's done"})
case("invalid-escape", '{"field": "snake\\_case\\_name", "n": 1}', {"field": "snake_case_name", "n": 1})
case("invalid-escape", '{"md": "\\*bold\\* and \\[link\\]"}', {"md": "*bold* and [link]"})
case("invalid-escape", "```json\n{\"title\": \"Don\\'t panic\"}\n```", {"title": "Don't panic"})
case("invalid-escape", '{"q": "What\\\'s up\\?"}', {"q": "What's up?"})
case("invalid-escape", '{"path": "C:\\Users\\ada"}', refuse="a backslash before a letter: literal or stray")
case("invalid-escape", '{"regex": "^\\d+\\.\\d+$"}', refuse="a regular expression: literal backslashes")
each("mismatched-bracket", lambda b: (lambda t: t[:t.rindex("]")] + "}" + t[t.rindex("]") + 1:] if "]" in t else None)(render(b)))
case("mismatched-bracket", '{"a": [1, 2}, "b": 3}', {"a": [1, 2], "b": 3})
case("mismatched-bracket", '[{"a": 1]', [{"a": 1}])
case("mismatched-bracket", '{"list": ["x", "y"}}', {"list": ["x", "y"]})
case("missing-comma", '{"a": 1 "b": 2}', {"a": 1, "b": 2})
case("missing-comma", '["a" "b" "c"]', ["a", "b", "c"])
case("missing-comma", '[1 2 3]', [1, 2, 3])
case("missing-comma", '{"a": {"x": 1} "b": [2]}', {"a": {"x": 1}, "b": [2]})
case("missing-comma", '[{"id": 1} {"id": 2}]', [{"id": 1}, {"id": 2}])
each("missing-comma", lambda b: render(b, sep="\n") if isinstance(b, dict) else None)
case("doubled-quotes", '{"name": ""Ada""}', {"name": "Ada"})
case("doubled-quotes", '{"a": ""x y"", "b": 1}', {"a": "x y", "b": 1})
case("doubled-quotes", '[""one"", ""two""]', ["one", "two"])
case("doubled-quotes", '{"empty": "", "n": 0}', {"empty": "", "n": 0})
case("unescaped-quote", '{"quote": "she said "}" twice", "n": 2}', {"quote": 'she said "}" twice', "n": 2})
case("unescaped-quote", '{"title": "The "Best" Day", "year": 2020}', {"title": 'The "Best" Day', "year": 2020})
case("unescaped-quote", '{"msg": "press "OK" to go on"}', {"msg": 'press "OK" to go on'})
case("unescaped-quote", '{"a": "He said "hi" and "bye""}', {"a": 'He said "hi" and "bye"'})
case("unescaped-quote", '[{"line": "a "b" c"}, {"line": "d"}]', [{"line": 'a "b" c'}, {"line": "d"}])
case("unescaped-quote", 'Answer: {"reply": "Use "--force" carefully", "ok": true}', {"reply": 'Use "--force" carefully', "ok": True})
case("unescaped-quote", '{"text": "Note: "important": read"}', refuse="a quote before a colon: text or a key?")
case("unterminated-string", '[{"note": "check the valve}]', [{"note": "check the valve"}])
case("unterminated-string", '{"a": "x, "b": "y"}', {"a": "x", "b": "y"})
case("unterminated-string", '{"name": "Ada, "age": 36}', {"name": "Ada", "age": 36})
case("unterminated-string", '{"status": "done}', {"status": "done"})
case("unterminated-string", '{"items": ["one", "two]}', {"items": ["one", "two"]})
case("unterminated-string", '{"a": "x\',\'b\':\'y\'}', refuse="the quote style switched: which strings end where?")
case("missing-start", 'key": "v"}', {"key": "v"})
case("missing-start", 'answer": "42"}', {"answer": "42"})
case("missing-start", '"a":1,"b":2}', {"a": 1, "b": 2})
case("missing-start", '"name": "Ada", "tags": ["x"]}', {"name": "Ada", "tags": ["x"]})
case("missing-start", 'id": 1}, {"id": 2}]', [{"id": 1}, {"id": 2}])
case("missing-start", 'lo world", "b": 2}', refuse="begins inside a value: its key is lost")

# --- issue 13's families -------------------------------------------------------------
each("smart-quotes", lambda b: render(b, key=lambda k: f"\u201c{k}\u201d", string=lambda s: f"\u201c{s}\u201d"))
case("smart-quotes", "{\u2018a\u2019: \u2018b\u2019}", {"a": "b"})
each("missing-colon", lambda b: render(b, colon=" ") if isinstance(b, dict) else None)
case("missing-colon", '{"a" 1, "b": 2}', {"a": 1, "b": 2})
case("missing-colon", '{"a" {"b" [1]}}', {"a": {"b": [1]}})
case("leading-comma", "[, 1, 2]", [1, 2])
case("leading-comma", '{, "a": 1}', {"a": 1})
case("leading-comma", '{"list": [,"x"], "n": 1}', {"list": ["x"], "n": 1})
case("leading-comma", "[,,1]", refuse="an empty item?")
each("unicode-space", lambda b: render(b, sep=",\u00a0", colon=":\u00a0"))
each("unicode-space", lambda b: render(b, sep=",\u3000", colon=":\u2003"), wraps=WRAPS[:1])
case("number-format", "[.5, 5., +1, 0x1F]", [0.5, 5.0, 1, 31])
case("number-format", '{"p": .25, "q": -.75}', {"p": 0.25, "q": -0.75})
case("number-format", '{"n": +42}', {"n": 42})
case("number-format", '{"mask": 0xFF, "n": 1}', {"mask": 255, "n": 1})
case("number-format", '{"x": 1.}', {"x": 1.0})
case("number-format", '{"big": 1_000_000}', {"big": 1000000})
case("unquoted-value", '{"w": 12px}', {"w": "12px"})
case("unquoted-value", '{"v": 1.2.3}', {"v": "1.2.3"})
case("undefined", '{"a": undefined, "b": 1}', {"a": None, "b": 1})
case("undefined", "[undefined, 2]", [None, 2])
case("undefined", '```json\n{"next": undefined}\n```', {"next": None})
each("literal-case", lambda b: render(b, literal=lambda v: {True: "TRUE", False: "FALSE", None: "NULL"}[v]) if has(b, lambda v: isinstance(v, bool) or v is None) else None)
case("literal-case", '{"ok": NULL, "done": TRUE}', {"ok": None, "done": True})
# A word that only resembles a literal is a word (an enum copied from the prompt).
case("unquoted-value", '{"action": NONE, "reason": "nothing to do"}', {"action": "NONE", "reason": "nothing to do"})
case("unquoted-value", '{"ok": Null, "done": tRUE}', {"ok": "Null", "done": "tRUE"})
case("unquoted-key", '{2: "b", 10: "c"}', {"2": "b", "10": "c"})
case("unquoted-key", '{1: {"x": 1}}', {"1": {"x": 1}})
case("unquoted-key", "{first name: 1}", refuse="a key with a space")

# --- issue 23's families -----------------------------------------------------------
# Bare words as values: quoted up to the next `,` `}` `]` (or the end of their line).
WORDS = {"status": "active", "mode": "read-only", "id": "3f2a9c1e-77b4-4c1e-9d2a-0b1c2d3e4f50",
         "city": "New York", "owner": "O'Brien", "name": "São Paulo", "ratio": "1/3",
         "range": "10-20", "at": "2024-10-18T18:35:22Z", "url": "https://example.com/a"}
for key, word in WORDS.items():
    for wrap in WRAPS:
        case("unquoted-value", wrap(f'{{"{key}": {word}, "n": 1}}'), {key: word, "n": 1})
    case("unquoted-value", f'{{\n  "n": 1,\n  "{key}": {word}\n}}', {"n": 1, key: word})
case("unquoted-value", '[1, foo, 4]', [1, "foo", 4])
case("unquoted-value", '{"a": foo", "b": "bar"}', {"a": "foo", "b": "bar"})
case("unquoted-value", '{"a": 1,\n "b": hello world\n "c": 2}', {"a": 1, "b": "hello world", "c": 2})
case("unquoted-value", "[a, b]", refuse="only bare words: prose in brackets, or strings?")
case("unquoted-value", "Use {name: value} as the format.", refuse="a placeholder, not JSON")
case("unquoted-value", '{"a": hello: world}', refuse="a colon: a key of its own, or text")
case("unquoted-value", '{"a": say "hi" now}', refuse="a quote in the word")
case("unquoted-value", '{"a": first line\nsecond line}', refuse="where the value ends is a guess")
case("unquoted-value", '{"n": 12345"}', refuse="a number and a stray quote, or a string?")
case("unquoted-value", '{"a": [x] y}', refuse="a bracket in the word")
# A key with one of its quotes missing.
case("key-quote", '{"name: "Ada", "age": 36}', {"name": "Ada", "age": 36})
case("key-quote", '{"answer: 42}', {"answer": 42})
case("key-quote", '{name": "Ada", "age": 36}', {"name": "Ada", "age": 36})
case("key-quote", '{"a": "x", coworker": "Bob"}', {"a": "x", "coworker": "Bob"})
case("key-quote", '{"key:"value"}', {"key": "value"})
case("key-quote", '{"ratio 1: 2": 3, "b": x}', {"ratio 1: 2": 3, "b": "x"})
# A string that runs into the closers, with commas and apostrophes inside.
for note in ["check the valve", "the valve\u2019s seal, the pump\u2019s filter, and the tank",
             "it's done, really", "Checked: the valve, the pump"]:
    text = json.dumps(note, ensure_ascii=False)[:-1]
    case("unterminated-string", '{"items": [{"id": 1, "note": ' + text + '}]}', {"items": [{"id": 1, "note": note}]})
    case("unterminated-string", '```json\n{"items": [{"note": ' + text + '}]}\n```', {"items": [{"note": note}]})
case("unterminated-string", '{"note": "ends with space }', {"note": "ends with space"})
case("unterminated-string", '["hello, world]', refuse="the quote before the comma, or at the closer?")
case("unterminated-string", '["https://example.com/,2]', refuse="the quote before the comma, or at the closer?")
case("unterminated-string", '{"text": "say \\"hi\\"}', refuse="an escaped quote where the closing one belongs")
case("unterminated-string", '{"text": "say \\"hi\\", "n": 1}', refuse="an escaped quote where the closing one belongs")
case("unterminated-string", '{"a": "x + }', refuse="text stops mid-expression")
case("unterminated-string", '{"a": "see [1]}', refuse="a bracket where the quote belongs")
# Mismatched closers: `]` for `}]`, `}` for `]`, one closer for two levels.
case("mismatched-bracket", '{"items": [{"a": 1], "n": 2}', {"items": [{"a": 1}], "n": 2})
case("mismatched-bracket", '{"tags": ["a", "b"}, "n": 2}', {"tags": ["a", "b"], "n": 2})
case("mismatched-bracket", '{"a": [1, 2}', {"a": [1, 2]})
case("mismatched-bracket", '[{"a": [1, 2}]', [{"a": [1, 2]}])
case("mismatched-bracket", '{"a": {"b": [1]}}]', refuse="a closer too many")

# --- never a wrong guess ---------------------------------------------------------------
case("never", '{"key": "value""}', refuse="a doubled or a stray quote")
case("never", '{"key": ""value"}', refuse="doubled quotes that do not close doubled")
case("never", '["abc,\n"def"]', refuse="one string with a quote, or two strings?")
case("never", '["hello,"world"]', refuse="one string with a quote, or two strings?")
case("never", '{"b": "xxxxx" true}', refuse="a stray quote, or a string and a literal?")
case("never", '["He said \\"stop\\",\n "then left."]', refuse="the end of a quoted phrase, or the item's closing quote?")
case("never", '["one, \'two\', \'three\']', refuse="one string, or three items?")
case("never", '{"a": [1, 2]]}', refuse="an extra closer, or a lost opener?")
# --- round 4: readings where only one is complete ---------------------------------------
case("unterminated-string", '{"steps": [{"text": "go"}, {"text": "then: \'press start\'}]}', {"steps": [{"text": "go"}, {"text": "then: 'press start'"}]})
case("mismatched-bracket", '[{"a": 1}, {"b": 2} } ]', [{"a": 1}, {"b": 2}])
case("mismatched-bracket", '{"rows": [{"a": 1} } ], "n": 1}', {"rows": [{"a": 1}], "n": 1})
case("escaped-closing-quote", '{"notes": [\n  "Open the lid.\\",\n  "Press start."\n]}', {"notes": ["Open the lid.", "Press start."]})
case("escaped-closing-quote", '["one.\\",\n "two.\\",\n "three."]', ["one.", "two.", "three."])
case("never", '{"a": "x" coworker": "y"}', refuse="a key inside the previous value?")
case("never", '{"size": "27" monitor"}', refuse="an odd quote: inches, or the end of the string?")
case("never", "Use `row['6']` to read it.", refuse="code, not the answer")
case("never", "Set x = [1, 2] and call f(x).", refuse="code, not the answer")
case("never", "In Python:\nrow['6'] = 1\nprint(row)", refuse="code, not the answer")
case("never", "```python\nx = [1, 2]\nprint(x)\n```", refuse="code, not the answer")
case("never", '{"greeting": \'hello\' + \'world\'}', refuse="an expression, not a string")
case("never", '{"code": 007}', refuse="the number or the digits as text")

# --- combinations and prose around them ---------------------------------------------
case("combined", "Sure! Here it is:\n{'name': 'Ada', active: True, // on\n 'tags': ['x', 'y',],}", {"name": "Ada", "active": True, "tags": ["x", "y"]})
case("combined", "{\u201cscore\u201d: .5, \u201cok\u201d: TRUE}", {"score": 0.5, "ok": True})
case("combined", "Fill in {placeholder} like this: {'name': 'Ada', 'age': 36,}", {"name": "Ada", "age": 36})
case("combined", "Use {name} and {age}. Answer: {name: 'Ada', age: 36,}", {"name": "Ada", "age": 36})
case("combined", '{"a": NaN, "b": undefined, "c": None}', {"a": None, "b": None, "c": None})
case("combined", '[{"id": 1} {"id": 2},]', [{"id": 1}, {"id": 2}])

# --- what must never be read: fragments and ambiguity ------------------------------------
case("fragment", '[{"i":1{"i":2}]', refuse="a value inside a broken one")
case("fragment", '{"a": 1}}', refuse="more closers than openers")
case("fragment", "[1,,2]", refuse="an empty item")

# --- valid JSON, which must come back as it is ------------------------------------------
VALID = [
    {"a": 'quote " and \\ backslash', "b": "{not: json}"},
    {"text": "it's 'quoted'", "n": -0.5e-3},
    {"unicode": "caf\u00e9 \u201ccurly\u201d \u00a0nbsp", "e": ""},
    [[], {}, [[]], {"a": {}}],
    {"nested": {"deep": [1, [2, [3, {"x": None}]]]}},
] + BASES
for v in VALID:
    case("valid", json.dumps(v, ensure_ascii=False), v)
    case("valid", json.dumps(v, indent=2, ensure_ascii=False), v)

# --- truncated output, which must never be completed --------------------------------------
for v in BASES:
    text = json.dumps(v)
    for cut in sorted({len(text) // 4, len(text) // 2, len(text) - 1, len(text) - 2}):
        case("truncated", text[:cut], refuse="cut off")
    broken = render(v, key=lambda k: f"'{k}'", string=lambda s: f"'{s}'")
    case("truncated", broken[: len(broken) * 2 // 3], refuse="cut off")

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "corpus.jsonl"), "w", encoding="utf-8") as out:
    for line in cases:
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
print(len(cases), "cases")
