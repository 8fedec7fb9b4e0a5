//! Reading and merging shard files never panics and never allocates for
//! what a file merely claims.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schedlab_experiment::Merger;

fuzz_target!(|data: &[u8]| {
    let mut one = Merger::new(1 << 26);
    if one.add_reader(data).is_ok() {
        let _ = one.finish();
        let mut two = Merger::new(1 << 26);
        if two.add_reader(data).is_ok() && two.add_reader(data).is_ok() {
            let _ = two.finish();
        }
    }
});
