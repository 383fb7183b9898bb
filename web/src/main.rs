//! Entry point of the browser bundle built by trunk.

/// The allocator: talc instead of the standard library's dlmalloc (2.4 KB brotli smaller).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    nginx_gen_web::start();
}
