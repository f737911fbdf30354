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
use jxray::schema::Schema;
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
        let schema = schema
            .map(|schema| compiled_schema(py, schema))
            .transpose()?;
        Ok(Settings {
            checker: Checker::new(options, schema),
            decimals: Decimals::parse(decimals)?,
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

/// Schemas compiled before, by their document (a dict) or their file (path, size and
/// modification time): a loop calling `extract(text, schema=...)` compiles it once.
static SCHEMAS: Mutex<Option<HashMap<String, Arc<Schema>>>> = Mutex::new(None);

/// Most schemas kept compiled; the cache starts over past it.
const SCHEMAS_KEPT: usize = 64;

/// `schema=`: a JSON Schema as a dict (or a list or bool), the path of a schema file, or a
/// Pydantic model (its `model_json_schema()`) or `TypeAdapter` (its `json_schema()`).
pub fn compiled_schema(py: Python<'_>, schema: &Bound<'_, PyAny>) -> PyResult<Arc<Schema>> {
    if let Some(document) = pydantic_schema(schema)? {
        return compiled_schema(py, &document);
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
            Schema::from_value(&document, "the schema given as schema=").map_err(schema_error)
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
            py.detach(|| Schema::from_file(&path)).map_err(schema_error)
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

fn cached(key: String, compile: impl FnOnce() -> PyResult<Schema>) -> PyResult<Arc<Schema>> {
    let lock = || SCHEMAS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(schema) = lock().as_ref().and_then(|kept| kept.get(&key)) {
        return Ok(Arc::clone(schema));
    }
    let schema = Arc::new(compile()?);
    let mut kept = lock();
    let kept = kept.get_or_insert_with(HashMap::new);
    if kept.len() >= SCHEMAS_KEPT {
        kept.clear();
    }
    kept.insert(key, Arc::clone(&schema));
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
