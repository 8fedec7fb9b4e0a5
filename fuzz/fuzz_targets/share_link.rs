//! Share-link decoding never panics, whatever the fragment, and a link it
//! accepts encodes and decodes back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schedlab_experiment::link::{decode, encode};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for fragment in [text.to_owned(), format!("v1={text}"), format!("v2={text}")] {
        if let Ok(link) = decode(&fragment) {
            let again = encode(&link).expect("a decoded link encodes");
            assert_eq!(decode(&again).expect("an encoded link decodes"), link);
        }
    }
});
