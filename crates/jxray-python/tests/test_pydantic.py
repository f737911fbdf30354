"""A Pydantic model or TypeAdapter as ``schema`` (contract §6): Pydantic itself validates each
candidate, so field and model validators run; a ``ValidationError`` is the ``schema`` failure,
its errors located by JSON Pointers with Pydantic's messages; an accepted value is the model's
instance, in ``extract``, ``extract_response``, ``check``, ``repair`` and ``arepair``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import List, Literal

import pydantic
import pytest

import jxray


class Item(pydantic.BaseModel):
    name: str
    price: float

    @pydantic.field_validator("price")
    @classmethod
    def positive(cls, price: float) -> float:
        if price <= 0:
            raise ValueError("a price must be positive")
        return price


class Order(pydantic.BaseModel):
    customer: str
    items: List[Item]
    total: float

    @pydantic.model_validator(mode="after")
    def adds_up(self) -> "Order":
        if abs(sum(item.price for item in self.items) - self.total) > 0.005:
            raise ValueError("the total is not the sum of the prices")
        return self


class Triage(pydantic.BaseModel):
    severity: Literal["low", "medium", "high"]
    escalate: bool


GOOD = '{"customer": "Ada", "items": [{"name": "pen", "price": 2.5}, {"name": "ink", "price": 4}], "total": 6.5}'
NEGATIVE = '{"customer": "Ada", "items": [{"name": "pen", "price": -2.5}], "total": -2.5}'
WRONG_TOTAL = '{"customer": "Ada", "items": [{"name": "pen", "price": 2.5}], "total": 9}'


def test_an_accepted_value_is_the_models_instance():
    outcome = jxray.extract(f"Here:\n```json\n{GOOD}\n```", schema=Order)
    assert outcome.ok and outcome.layer == "fenced"
    assert isinstance(outcome.value, Order)
    assert outcome.value.items[1] == Item(name="ink", price=4.0)
    assert outcome.value_or_raise() is outcome.value
    # The JSON form is still the JSON that was read.
    assert json.loads(outcome.to_json())["value"]["total"] == 6.5


def test_a_field_validators_rejection_is_a_schema_failure_at_its_pointer():
    outcome = jxray.extract(NEGATIVE, schema=Order)
    assert not outcome.ok
    assert outcome.failure.kind == "schema"
    message = outcome.failure.message
    assert "/items/0/price = -2.5: Value error, a price must be positive" in message, message
    # A failure keeps the plain value, as a JSON Schema failure does.
    assert outcome.value == json.loads(NEGATIVE)
    with pytest.raises(jxray.SchemaError):
        outcome.value_or_raise()


def test_a_model_validators_rejection_is_a_failure_of_the_whole_value():
    outcome = jxray.extract(WRONG_TOTAL, schema=Order)
    assert outcome.failure.kind == "schema"
    assert "(root) = {" in outcome.failure.message
    assert "Value error, the total is not the sum of the prices" in outcome.failure.message


def test_a_missing_field_and_a_wrong_literal_are_said_in_pydantics_words():
    outcome = jxray.extract('{"severity": "urgent"}', schema=Triage)
    message = outcome.failure.message
    assert "2 violations" in message, message
    assert "/severity = \"urgent\": Input should be 'low', 'medium' or 'high'" in message
    assert "/escalate: Field required" in message


def test_the_first_candidate_pydantic_accepts_is_the_answer():
    text = f"Not this one: {NEGATIVE}\nThis one: {GOOD}"
    outcome = jxray.extract(text, schema=Order)
    assert isinstance(outcome.value, Order) and outcome.value.total == 6.5


def test_a_type_adapter_validates_and_gives_what_it_returns():
    adapter = pydantic.TypeAdapter(List[Item])
    outcome = jxray.extract('[{"name": "pen", "price": 1}]', schema=adapter)
    assert outcome.value == [Item(name="pen", price=1.0)]
    failed = jxray.extract('[{"name": "pen", "price": 1}, {"name": "ink", "price": 0}]', schema=adapter)
    assert failed.failure.kind == "schema"
    assert "/1/price = 0: Value error, a price must be positive" in failed.failure.message


def test_dict_schemas_are_as_they_were():
    schema = Order.model_json_schema()
    outcome = jxray.extract(NEGATIVE, schema=schema)
    # The JSON Schema cannot say "positive": only Pydantic's validator rejects it.
    assert outcome.ok and outcome.value == json.loads(NEGATIVE)


def test_extract_response_gives_instances():
    response = {
        "id": "x", "object": "chat.completion", "model": "gpt-4o-mini",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": '{"severity": "HIGH", "escalate": true}'}}],
    }
    with pytest.raises(jxray.SchemaError):
        jxray.extract_response(response, schema=Triage)[0].value_or_raise()
    response["choices"][0]["message"]["content"] = '{"severity": "high", "escalate": true}'
    [outcome] = jxray.extract_response(response, schema=Triage)
    assert outcome.value == Triage(severity="high", escalate=True)


def test_check_gives_instances(tmp_path: Path):
    (tmp_path / "good.txt").write_text(GOOD)
    (tmp_path / "bad.txt").write_text(NEGATIVE)
    seen = {Path(source).name: outcome for source, outcome in jxray.check(tmp_path, schema=Order)}
    assert isinstance(seen["good.txt"].value, Order)
    assert seen["bad.txt"].failure.kind == "schema"
    assert "/items/0/price" in seen["bad.txt"].failure.message


class Scripted:
    def __init__(self, *replies: str) -> None:
        self.replies = list(replies)
        self.prompts: List[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.replies[len(self.prompts) - 1]


def test_the_loop_re_asks_on_a_validators_rejection_and_returns_the_instance():
    generate = Scripted(NEGATIVE, GOOD)
    result = jxray.repair(generate, "Give the order as JSON.", schema=Order)
    assert (result.status, result.repaired, len(generate.prompts)) == ("success", True, 2)
    assert isinstance(result.value, Order)
    assert result.value_or_raise() is result.value
    request = generate.prompts[1]
    # The validator's finding is in the repair request, located, as jsonschema's are.
    assert "/items/0/price" in request and "a price must be positive" in request, request
    assert result.attempts[0].outcome.failure.kind == "schema"


def test_the_async_loop_does_the_same():
    replies = iter([WRONG_TOTAL, GOOD])

    async def generate(prompt: str) -> str:
        return next(replies)

    result = asyncio.run(jxray.arepair(generate, "Give the order as JSON.", schema=Order))
    assert result.status == "success" and result.repaired
    assert isinstance(result.value, Order)


def test_a_validator_that_raises_something_else_is_said_not_hidden():
    class Odd(pydantic.BaseModel):
        n: int

        @pydantic.field_validator("n")
        @classmethod
        def broken(cls, n: int) -> int:
            raise RuntimeError("the validator itself broke")

    outcome = jxray.extract('{"n": 1}', schema=Odd)
    assert outcome.failure.kind == "schema"
    assert "RuntimeError: the validator itself broke" in outcome.failure.message
