//! bcolz
