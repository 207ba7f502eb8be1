//! TEMPORARY stub.
