//! Every chunk of the shared corpus decodes to the manifest's hash.
