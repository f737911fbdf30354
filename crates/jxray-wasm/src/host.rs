//! The host's side of the boundary: the one function the module imports, which asks the
//! JavaScript validator about a value (see `npm/src/core.js`, `validate`).

#[cfg(target_arch = "wasm32")]
mod imported {
    use crate::validator::HostValidator;

    #[link(wasm_import_module = "jxray")]
    extern "C" {
        /// Asks the host's validator about the UTF-8 JSON at `ptr..ptr + len`. Without
        /// `explain`: 1 when it validates, else 0. With `explain`: the length of the
        /// issues the host wrote into the issues buffer (`jx_issues`), 0 when it validates.
        fn validate(ptr: *const u8, len: usize, explain: u32) -> usize;
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
    }
}

#[cfg(target_arch = "wasm32")]
pub use imported::Host;
