//! Round trips, specials, getitem.
