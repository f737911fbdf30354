//! Object keys as Python strings, made once: models write the same few keys in every
//! reply (`"name"`, `"items"`, `"price"`), and a `str` made before (its hash already
//! computed) goes into a dict faster than a new one.
//!
//! A fixed table of slots, each holding the last key that hashed to it: bounded memory,
//! and a key that misses is simply made and takes the slot.

use std::sync::{Mutex, MutexGuard, TryLockError};

use pyo3::prelude::*;
use pyo3::types::PyString;

/// Slots in the table (a power of two).
const SLOTS: usize = 1024;
/// Longer keys are made each time: they rarely repeat, and comparing them costs more.
const LONGEST: usize = 64;

type Slot = Option<(Box<str>, Py<PyString>)>;

static TABLE: Mutex<Vec<Slot>> = Mutex::new(Vec::new());

/// Makes the keys of one conversion, the table held for all of them. It is only tried:
/// a conversion can run Python code (`decimal.Decimal`, its import), another thread can
/// convert meanwhile, and that one makes its keys itself rather than wait for the table.
pub struct Keys {
    table: Option<MutexGuard<'static, Vec<Slot>>>,
}

impl Keys {
    pub fn take() -> Keys {
        let table = match TABLE.try_lock() {
            Ok(table) => Some(table),
            Err(TryLockError::Poisoned(poisoned)) => Some(poisoned.into_inner()),
            Err(TryLockError::WouldBlock) => None,
        };
        let table = table.map(|mut table| {
            if table.is_empty() {
                table.resize_with(SLOTS, || None);
            }
            table
        });
        Keys { table }
    }

    /// `key` as a Python string: the one made before when its slot holds it.
    pub fn get<'py>(&mut self, py: Python<'py>, key: &str) -> Bound<'py, PyString> {
        let Some(table) = self.table.as_mut().filter(|_| key.len() <= LONGEST) else {
            return PyString::new(py, key);
        };
        let slot = &mut table[slot_of(key)];
        if let Some((held, string)) = slot {
            if **held == *key {
                return string.bind(py).clone();
            }
        }
        let string = PyString::new(py, key);
        *slot = Some((key.into(), string.clone().unbind()));
        string
    }
}

/// FNV-1a over the key's bytes, folded to a slot.
fn slot_of(key: &str) -> usize {
    let hash = key.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    (hash as usize ^ (hash >> 32) as usize) & (SLOTS - 1)
}
