//! Reading and merging shard files never panics and never allocates for
//! what a file merely claims.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schedlab_experiment::{merge, read_shard};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(part) = read_shard(text, 1) {
        let _ = merge(vec![part.clone()]);
        let _ = merge(vec![part.clone(), part]);
    }
});
