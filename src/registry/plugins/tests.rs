use super::*;

fn codec(code: u8, name: &str) -> Codec {
    Codec {
        code,
        name: name.to_owned(),
        complib: 9,
        version: 2,
        encoder: None,
        decoder: None,
    }
}

fn filter(id: u8, name: &str) -> Filter {
    Filter {
        id,
        name: name.to_owned(),
        version: 1,
        forward: None,
        backward: None,
    }
}

#[test]
fn user_ids_and_name_clashes_follow_the_reference() {
    crate::global::init();
    for bad in [0u8, 5, 32, 40, 159] {
        assert_eq!(register_codec(codec(bad, "x")), Err(Error::CodecParam));
        assert_eq!(register_filter(filter(bad, "x")), Err(Error::Failure));
    }
    assert_eq!(register_codec(codec(230, "reg-test-a")), Ok(()));
    assert_eq!(register_codec(codec(230, "reg-test-a")), Ok(()));
    assert_eq!(
        register_codec(codec(230, "reg-test-b")),
        Err(Error::CodecParam)
    );
    assert_eq!(register_codec(codec(231, "reg-test-a")), Ok(()));
    assert_eq!(codec_named("reg-test-a").map(|c| c.code), Some(230));
    assert_eq!(super::codec(231).map(|c| c.version), Some(2));
    assert_eq!(register_filter(filter(230, "f")), Ok(()));
    assert_eq!(register_filter(filter(230, "g")), Err(Error::Failure));
    let t = |id, name: &str| Tuner {
        id,
        name: name.to_owned(),
        hooks: None,
    };
    assert_eq!(register_tuner(t(32, "x")), Err(Error::Failure));
    assert_eq!(register_tuner(t(230, "tt")), Ok(()));
    assert_eq!(register_tuner(t(230, "tu")), Err(Error::Failure));
}

#[test]
fn init_registers_the_plugins() {
    crate::global::init();
    assert_eq!(codec_named("ndlz").map(|c| c.code), Some(32));
    assert_eq!(
        super::codec(40).map(|c| c.name.clone()).as_deref(),
        Some("htj2k")
    );
    let names: Vec<String> = (32..=36)
        .filter_map(|id| super::filter(id).map(|f| f.name.clone()))
        .collect();
    assert_eq!(
        names,
        [
            "ndcell",
            "ndmean",
            "bytedelta_buggy",
            "bytedelta",
            "int_trunc"
        ]
    );
    assert_eq!(
        tuner_entry(32).map(|t| t.name.clone()).as_deref(),
        Some("btune")
    );
    assert!(super::filter(37).is_none());
}
