//! The host's side of the boundary: the functions the module imports, which ask the
//! JavaScript validator about a value, or about a part of a streamed value that closed (see
//! `npm/src/engine.js`, `validate` and `closed`).

#[cfg(target_arch = "wasm32")]
mod imported {
    use crate::validator::HostValidator;

    #[link(wasm_import_module = "jxray")]
    extern "C" {
        /// Asks the host's validator about the UTF-8 JSON at `ptr..ptr + len`. Without
        /// `explain`: 1 when it validates, else 0. With `explain`: the length of the
        /// issues the host wrote into the issues buffer (`jx_issues`), 0 when it validates.
        fn validate(ptr: *const u8, len: usize, explain: u32) -> usize;
        /// Asks the host about the value (UTF-8 JSON at `ptr..ptr + len`) that closed at
        /// the JSON Pointer at `path..path + path_len` of a streamed value: the length of
        /// the issues the host wrote, 0 when it finds none or cannot judge that part alone.
        fn closed(path: *const u8, path_len: usize, ptr: *const u8, len: usize) -> usize;
    }

    /// The validator the host holds for this call; `take_issues` reads the issues the host
    /// wrote (the boundary owns that buffer: `jx_issues`).
    pub struct Host {
        pub take_issues: fn(usize) -> String,
    }

    impl HostValidator for Host {
        fn valid(&self, value: &str) -> bool {
            // SAFETY: the host reads `len` bytes at `ptr`, which `value` keeps alive for
            // the call; it writes only into the issues buffer, never into this memory.
            unsafe { validate(value.as_ptr(), value.len(), 0) == 1 }
        }

        fn issues(&self, value: &str) -> String {
            // SAFETY: as above.
            let len = unsafe { validate(value.as_ptr(), value.len(), 1) };
            (self.take_issues)(len)
        }

        fn closed_issues(&self, path: &str, value: &str) -> String {
            // SAFETY: as above; `path` is kept alive for the call as `value` is.
            let len = unsafe { closed(path.as_ptr(), path.len(), value.as_ptr(), value.len()) };
            (self.take_issues)(len)
        }
    }
}

#[cfg(target_arch = "wasm32")]
pub use imported::Host;
