//! The Blosc chunk format: header, block streams, compression and decompression.
