//! The keyword arguments every function takes, read into the engine's and the readers'
//! options; a bad one is a `ValueError` or `TypeError` in one line, naming the argument.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use jxray::capture::fields::{FieldPath, PathFlags, Preset};
use jxray::capture::{LoadOptions, SourceNames};
use jxray::check::Checker;
use jxray::engine::{Options, Pick};
use jxray::schema::{Schema, Violation};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::convert::Decimals;

/// What extraction is asked for: the engine's options, the schema, how decimals come out.
#[derive(Clone)]
pub struct Settings {
    /// How each capture is judged: the options and the schema, as `jxray check` judges.
    pub checker: Checker,
    pub decimals: Decimals,
    /// The Pydantic model or `TypeAdapter` given as the schema: an accepted value is what
    /// it returns (the model's instance).
    pub pydantic: Option<Arc<Pydantic>>,
}

impl Settings {
    /// From the arguments `extract`, `extract_response` and `check` share.
    pub fn new(
        py: Python<'_>,
        accept_lenient: bool,
        decode_stringified: bool,
        pick: &str,
        schema: Option<&Bound<'_, PyAny>>,
        decimals: &str,
    ) -> PyResult<Settings> {
        let options = Options::default()
            .with_accept_lenient(accept_lenient)
            .with_decode_stringified(decode_stringified)
            .with_pick(parse_pick(pick)?);
        let schema = schema.map(|schema| schema_arg(py, schema)).transpose()?;
        let pydantic = schema.as_ref().and_then(|schema| schema.pydantic.clone());
        Ok(Settings {
            // Values come as compact text, read straight into Python objects (from_text.rs):
            // no tree is built for them unless a schema reads it.
            checker: Checker::new(options, schema.map(|schema| schema.schema))
                .writing_values_as_text(),
            decimals: Decimals::parse(decimals)?,
            pydantic,
        })
    }
}

fn parse_pick(pick: &str) -> PyResult<Pick> {
    pick.parse()
        .map_err(|error: jxray::engine::UnknownPick| PyValueError::new_err(error.to_string()))
}

/// Where the fields of a JSON log's records are (`check`'s `text_path=` and friends).
pub struct LogFields<'a> {
    pub text_path: Option<&'a str>,
    pub stop_path: Option<&'a str>,
    pub id_path: Option<&'a str>,
    pub model_path: Option<&'a str>,
    pub preset: Option<&'a str>,
}

/// The readers' options, named as `jxray check` names sources.
pub fn load_options(max_bytes: u64, fields: &LogFields<'_>) -> PyResult<LoadOptions> {
    let path = |name: &str, text: Option<&str>| {
        text.map(|text| {
            text.parse::<FieldPath>()
                .map_err(|error| PyValueError::new_err(format!("{name}: {error}")))
        })
        .transpose()
    };
    let flags = PathFlags {
        preset: fields.preset.map(parse_preset).transpose()?,
        text: path("text_path", fields.text_path)?,
        stop: path("stop_path", fields.stop_path)?,
        id: path("id_path", fields.id_path)?,
        model: path("model_path", fields.model_path)?,
    };
    let fields = flags
        .field_map()
        .map_err(|error| PyValueError::new_err(flags_as_arguments(&error.to_string())))?;
    Ok(LoadOptions {
        max_bytes,
        fields: fields.map(Arc::new),
        sources: SourceNames::FromWorkingFolder,
    })
}

/// `--stop-path needs --text-path` as the keyword arguments say it: `stop_path needs text_path`.
fn flags_as_arguments(message: &str) -> String {
    message.replace("--", "").replace("-path", "_path")
}

fn parse_preset(name: &str) -> PyResult<Preset> {
    match name {
        "litellm" => Ok(Preset::Litellm),
        "langfuse" => Ok(Preset::Langfuse),
        "helicone" => Ok(Preset::Helicone),
        "otel" => Ok(Preset::Otel),
        other => Err(PyValueError::new_err(format!(
            "preset must be one of \"litellm\", \"langfuse\", \"helicone\", \"otel\", not {other:?}"
        ))),
    }
}

/// Schemas compiled before, by their document (a dict), their file (path, size and
/// modification time) or their Pydantic object (its identity and its JSON Schema): a loop
/// calling `extract(text, schema=...)` compiles it once.
static SCHEMAS: Mutex<Option<HashMap<String, SchemaArg>>> = Mutex::new(None);

/// Most schemas kept compiled; the cache starts over past it.
const SCHEMAS_KEPT: usize = 64;

/// A `schema=` argument, compiled.
#[derive(Clone)]
pub struct SchemaArg {
    pub schema: Arc<Schema>,
    /// The Pydantic model or `TypeAdapter` it was, which validates instead of its JSON Schema.
    pub pydantic: Option<Arc<Pydantic>>,
}

/// A Pydantic model class or `TypeAdapter` given as `schema=` (contract §6): Pydantic
/// itself validates each candidate value (so field and model validators run), its
/// `ValidationError` is the `schema` failure, each error located by a JSON Pointer, and an
/// accepted value comes out as the model's instance.
pub struct Pydantic {
    /// `model_validate_json` of a model class, `validate_json` of a `TypeAdapter`: the
    /// value is handed over as the JSON text it was read from, in JSON mode.
    validate_json: Py<PyAny>,
}

impl Pydantic {
    /// The Pydantic model class or `TypeAdapter` `schema` is; `None` for anything else.
    fn of(schema: &Bound<'_, PyAny>) -> PyResult<Option<Pydantic>> {
        if schema.is_instance_of::<PyDict>() {
            return Ok(None);
        }
        for (validate, publish) in [
            ("model_validate_json", "model_json_schema"),
            ("validate_json", "json_schema"),
        ] {
            if schema.hasattr(validate)? && schema.hasattr(publish)? {
                return Ok(Some(Pydantic {
                    validate_json: schema.getattr(validate)?.unbind(),
                }));
            }
        }
        Ok(None)
    }

    /// What Pydantic makes of `value` (the model's instance), or its `ValidationError`.
    pub fn instance(&self, py: Python<'_>, value: &serde_json::Value) -> PyResult<Py<PyAny>> {
        self.validate_json.call1(py, (value.to_string(),))
    }

    /// Every error Pydantic finds in `value`, as the schema's violations; none when it
    /// validates.
    fn violations(&self, value: &serde_json::Value) -> Vec<Violation> {
        Python::attach(|py| match self.instance(py, value) {
            Ok(_) => Vec::new(),
            Err(error) => violations_of(py, &error, value)
                .unwrap_or_else(|_| vec![Violation::at(value, String::new(), &error.to_string())]),
        })
    }
}

/// A `ValidationError`'s errors, each at the JSON Pointer its `loc` names in `value`;
/// anything else a validator raised is one violation of the whole value.
fn violations_of(
    py: Python<'_>,
    error: &PyErr,
    value: &serde_json::Value,
) -> PyResult<Vec<Violation>> {
    let raised = error.value(py);
    if !raised.hasattr("errors")? {
        let name = raised.get_type().name()?;
        return Ok(vec![Violation::at(
            value,
            String::new(),
            &format!("{name}: {raised}"),
        )]);
    }
    let errors = raised.call_method1("errors", ())?;
    let mut violations = Vec::new();
    for error in errors.try_iter()? {
        let error = error?;
        let message: String = error.get_item("msg")?.extract()?;
        let location: Vec<Bound<'_, PyAny>> = error.get_item("loc")?.extract()?;
        violations.push(Violation::at(
            value,
            pointer_of(&location, value)?,
            &message,
        ));
    }
    if violations.is_empty() {
        violations.push(Violation::at(value, String::new(), &raised.to_string()));
    }
    Ok(violations)
}

/// The JSON Pointer of a Pydantic error's `loc` in `value`: the keys and indexes that are
/// in the value (and a missing field's name, last); the labels Pydantic adds for a union's
/// member or a validator's function are not places in the value and are left out.
fn pointer_of(location: &[Bound<'_, PyAny>], value: &serde_json::Value) -> PyResult<String> {
    let mut at = Some(value);
    let mut segments: Vec<String> = Vec::new();
    for (index, part) in location.iter().enumerate() {
        let last = index + 1 == location.len();
        match at {
            Some(serde_json::Value::Object(fields)) => {
                let Ok(key) = part.extract::<String>() else {
                    continue;
                };
                if fields.contains_key(&key) || last {
                    at = fields.get(&key);
                    segments.push(key);
                }
            }
            Some(serde_json::Value::Array(items)) => {
                let Ok(position) = part.extract::<usize>() else {
                    continue;
                };
                at = items.get(position);
                segments.push(position.to_string());
            }
            _ => {}
        }
    }
    Ok(jxray_formats::violation::pointer(
        segments.iter().map(String::as_str),
    ))
}

/// `schema=`: a JSON Schema as a dict (or a list or bool), the path of a schema file, or a
/// Pydantic model (its `model_json_schema()`) or `TypeAdapter` (its `json_schema()`).
pub fn compiled_schema(py: Python<'_>, schema: &Bound<'_, PyAny>) -> PyResult<Arc<Schema>> {
    Ok(schema_arg(py, schema)?.schema)
}

/// [`compiled_schema`], with the Pydantic object that validates when it was one.
pub fn schema_arg(py: Python<'_>, schema: &Bound<'_, PyAny>) -> PyResult<SchemaArg> {
    if let Some(pydantic) = Pydantic::of(schema)? {
        let document = pydantic_schema(schema)?.ok_or_else(|| {
            PyTypeError::new_err("schema: the Pydantic object gave no JSON Schema as a dict")
        })?;
        let text: String = py
            .import("json")?
            .call_method1("dumps", (&document,))?
            .extract()?;
        // The object is held by the cache, so its identity names no other while kept.
        let key = format!("pydantic:{}:{text}", schema.as_ptr() as usize);
        return cached(key, || {
            let document: serde_json::Value = serde_json::from_str(&text)
                .map_err(|error| PyValueError::new_err(format!("schema: {error}")))?;
            let pydantic = Arc::new(pydantic);
            let validating = Arc::clone(&pydantic);
            let schema = Schema::from_value(&document, "the schema given as schema=")
                .map_err(schema_error)?
                .with_host_check(Arc::new(move |value| validating.violations(value)));
            Ok(SchemaArg {
                schema: Arc::new(schema),
                pydantic: Some(pydantic),
            })
        });
    }
    let is_document = schema.is_instance_of::<PyDict>()
        || schema.is_instance_of::<PyList>()
        || schema.is_exact_instance_of::<pyo3::types::PyBool>();
    if is_document {
        let text: String = py
            .import("json")?
            .call_method1("dumps", (schema,))?
            .extract()?;
        return cached(format!("doc:{text}"), || {
            let document: serde_json::Value = serde_json::from_str(&text)
                .map_err(|error| PyValueError::new_err(format!("schema: {error}")))?;
            Schema::from_value(&document, "the schema given as schema=")
                .map(SchemaArg::plain)
                .map_err(schema_error)
        });
    }
    if schema.is_instance_of::<PyString>() || schema.hasattr("__fspath__")? {
        let path: PathBuf = schema.extract()?;
        let stamp = std::fs::metadata(&path)
            .map(|meta| {
                (
                    meta.len(),
                    meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
                )
            })
            .ok();
        let key = format!("file:{}:{stamp:?}", path.display());
        return cached(key, || {
            py.detach(|| Schema::from_file(&path))
                .map(SchemaArg::plain)
                .map_err(schema_error)
        });
    }
    Err(PyTypeError::new_err(format!(
        "schema must be a JSON Schema as a dict, the path of a schema file, or a Pydantic \
         model, not {}",
        schema.get_type().name()?
    )))
}

/// The JSON Schema a Pydantic model class (`model_json_schema`) or `TypeAdapter`
/// (`json_schema`) publishes, as a dict; `None` for anything else.
fn pydantic_schema<'py>(schema: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    for method in ["model_json_schema", "json_schema"] {
        if schema.is_instance_of::<PyDict>() || !schema.hasattr(method)? {
            continue;
        }
        let document = schema.call_method0(method)?;
        if document.is_instance_of::<PyDict>() {
            return Ok(Some(document));
        }
    }
    Ok(None)
}

impl SchemaArg {
    fn plain(schema: Schema) -> SchemaArg {
        SchemaArg {
            schema: Arc::new(schema),
            pydantic: None,
        }
    }
}

fn cached(key: String, compile: impl FnOnce() -> PyResult<SchemaArg>) -> PyResult<SchemaArg> {
    let lock = || SCHEMAS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(schema) = lock().as_ref().and_then(|kept| kept.get(&key)) {
        return Ok(schema.clone());
    }
    let schema = compile()?;
    let mut kept = lock();
    let kept = kept.get_or_insert_with(HashMap::new);
    if kept.len() >= SCHEMAS_KEPT {
        kept.clear();
    }
    kept.insert(key, schema.clone());
    Ok(schema)
}

/// A schema that cannot be used, in the words `--schema` uses, said of `schema=`.
fn schema_error(error: jxray::schema::SchemaError) -> PyErr {
    PyValueError::new_err(
        error
            .to_string()
            .replace("given to --schema", "given as schema="),
    )
}
