// A streamed value's parts judged as they close (contract §7), by a Standard Schema validator
// whose own structure says which part of it rules a path: zod 4, zod 3 and valibot are walked
// through the kinds whose parts judge alone — an object's known members, an array's items, a
// tuple's places, a record's values, and the wrappers that leave a present value to the schema
// they wrap. Anything else (a union, a transform or preprocess, a fallback, a lazy schema, a
// kind this walk does not know) ends the walk: nothing is said early about what lies under
// it, so an early `schema` signal is never a false alarm. The end judges the whole value in
// any case (`extract` with the schema).

import { partIssues } from "./schema.js";

/** The issues of the part of `schema` that rules `pointer` (a JSON Pointer; `""`, the whole
 * value, is the whole schema's) about `value`, which closed there: `[{ path, message }]` with
 * paths inside the part; empty when it validates or when the path alone cannot say which
 * rules apply. */
export function closedIssues(schema, pointer, value) {
  let part = schema;
  for (const step of pointerSteps(pointer)) {
    const container = bare(part);
    part = container === null ? null : childOf(container, step);
    if (part == null) return [];
  }
  const standard = part["~standard"];
  if (typeof standard?.validate !== "function") return [];
  try {
    return partIssues(standard, value);
  } catch {
    // A validator that throws on a part says nothing early; the end asks it about the whole.
    return [];
  }
}

/** A JSON Pointer's steps, each a key or an index as text (`~1` read as `/`, `~0` as `~`). */
export function pointerSteps(pointer) {
  return pointer.split("/").slice(1).map((step) => step.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** What a schema is: its library's kind name and where its parts are. */
function described(schema) {
  if (schema === null || typeof schema !== "object" && typeof schema !== "function") return null;
  const zod4 = schema._zod?.def;
  if (zod4 && typeof zod4.type === "string") return { type: zod4.type, def: zod4, schema };
  const zod3 = schema._def;
  if (zod3 && typeof zod3.typeName === "string") return { type: ZOD3[zod3.typeName] ?? "other", def: zod3, schema };
  if (schema.kind === "schema" && typeof schema.type === "string") {
    // A valibot fallback stands in for a value that fails: its parts are not its rules.
    return { type: "fallback" in schema ? "other" : schema.type, def: schema, schema, valibot: true };
  }
  return null;
}

const ZOD3 = {
  ZodObject: "object",
  ZodArray: "array",
  ZodTuple: "tuple",
  ZodRecord: "record",
  ZodOptional: "optional",
  ZodNullable: "nullable",
  ZodDefault: "default",
  ZodReadonly: "readonly",
  ZodBranded: "branded",
  ZodEffects: "effects",
  ZodNever: "never",
};

/** Wrappers whose present value is judged by the schema they wrap. */
const WRAPPERS = new Set([
  "optional", "nullable", "default", "prefault", "readonly", "nonoptional", "branded",
  "nullish", "exact_optional", "undefinedable", "non_optional", "non_nullable", "non_nullish",
]);

/** The container schema under `schema`'s wrappers, or null when a kind in the way (or the
 * container itself) is not one whose parts judge alone. */
function bare(schema) {
  for (let depth = 0; depth < 64; depth++) {
    const kind = described(schema);
    if (kind === null) return null;
    if (kind.type === "effects") {
      // zod 3: a refinement checks after its schema has; a transform or preprocess changes what
      // the schema sees, so its parts are not known from here.
      if (kind.def.effect?.type !== "refinement") return null;
      schema = kind.def.schema;
    } else if (WRAPPERS.has(kind.type)) {
      schema = kind.valibot ? kind.def.wrapped : (kind.def.innerType ?? kind.def.type);
    } else {
      return CONTAINERS.has(kind.type) ? kind : null;
    }
  }
  return null;
}

const CONTAINERS = new Set([
  "object", "strict_object", "loose_object", "object_with_rest", "array", "tuple", "strict_tuple",
  "loose_tuple", "tuple_with_rest", "record",
]);

/** The schema of `step` (a key or an index, as text) inside the container `kind` describes. */
function childOf(kind, step) {
  const { type, def, schema } = kind;
  if (type === "array") return kind.valibot ? def.item : def.element ?? def.type;
  if (type === "record") return kind.valibot ? def.value : def.valueType;
  if (type.includes("tuple")) {
    if (!/^(0|[1-9][0-9]*)$/.test(step)) return null;
    return def.items?.[Number(step)] ?? def.rest ?? null;
  }
  // An object: a known member, else what its rest or catch-all says of others.
  const members = kind.valibot ? def.entries : (def.shape ?? schema.shape);
  const shape = typeof members === "function" ? members() : members;
  if (shape && Object.hasOwn(shape, step)) return shape[step];
  const rest = kind.valibot ? def.rest : def.catchall;
  return rest && described(rest)?.type !== "never" ? rest : null;
}
