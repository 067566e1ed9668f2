//! The functions the page calls, under their own names in the module (`#[unsafe(no_mangle)]`,
//! the one kind of unsafe this crate allows: it only fixes a symbol's name).
//!
//! The protocol: `input(len)` returns where to write `len` bytes of request; `call(len)` or
//! `load_key(len)` reads them and returns 0 for an answer, 1 for an error; `output()` and
//! `output_len()` say where the answer's JSON is (`{"error": …}` on failure). One request at a
//! time: the worker is single-threaded and waits for each answer.

use std::cell::RefCell;

use serde_json::{Value, json};
use zeroize::Zeroize;

use crate::ops;

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A buffer of `len` bytes for the next request, which the page fills before calling.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn input(len: usize) -> *mut u8 {
    INPUT.with(|input| {
        let mut input = input.borrow_mut();
        input.zeroize();
        input.resize(len, 0);
        input.as_mut_ptr()
    })
}

/// Where the last answer is.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn output() -> *const u8 {
    OUTPUT.with(|output| output.borrow().as_ptr())
}

#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn output_len() -> usize {
    OUTPUT.with(|output| output.borrow().len())
}

/// Answers the JSON request in the input buffer's first `len` bytes.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn call(len: usize) -> u32 {
    answer(ops::handle, len)
}

/// Loads the proving key in the input buffer's first `len` bytes.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn load_key(len: usize) -> u32 {
    answer(ops::load_key, len)
}

fn answer(op: impl FnOnce(&[u8]) -> Result<Value, ops::OpError>, len: usize) -> u32 {
    // A panic traps the module (panic = abort); its message is left in the output, so the
    // page can say what went wrong instead of "unreachable".
    std::panic::set_hook(Box::new(|info| {
        OUTPUT.with(|output| {
            if let Ok(mut output) = output.try_borrow_mut() {
                output.clear();
                let body = json!({ "error": format!("the prover failed: {info}") });
                let _ = serde_json::to_writer(&mut *output, &body);
            }
        })
    }));
    let result = INPUT.with(|input| {
        let mut input = input.borrow_mut();
        let len = len.min(input.len());
        let result = op(&input[..len]);
        // The request may have held a note.
        input.zeroize();
        input.clear();
        result
    });
    let (status, body) = match result {
        Ok(value) => (0, value),
        Err(e) => (1, json!({ "error": e.to_string() })),
    };
    OUTPUT.with(|output| {
        let mut output = output.borrow_mut();
        output.zeroize();
        output.clear();
        serde_json::to_writer(&mut *output, &body).expect("writing JSON to memory cannot fail");
    });
    status
}
