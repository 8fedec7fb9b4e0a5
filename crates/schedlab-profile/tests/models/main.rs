//! The planning structures against naive models, in one binary:
//!
//! - `profile`: the availability profile against an array of free
//!   processors per second;
//! - `treap`: the queue indexes' treap against an ordered map.

mod profile;
mod treap;
