//! NDLZ, ZFP, NDCELL and NDMEAN cases against the reference.

use super::tests::{check, data, Case};

fn case(compcode: u8, meta: u8, ts: i32, chunk: &[i32], block: &[i32]) -> Case {
    Case {
        compcode,
        compcode_meta: meta,
        filters: [0; 6],
        filters_meta: [0; 6],
        typesize: ts,
        splitmode: 1,
        chunkshape: chunk.to_vec(),
        blockshape: block.to_vec(),
        clevel: 5,
    }
}

#[test]
fn ndlz_chunks_are_the_references() {
    let shapes: &[(&[i32], &[i32])] = &[
        (&[64, 64], &[32, 32]),
        (&[60, 50], &[30, 25]),
        (&[128, 100], &[64, 50]),
        (&[32, 34], &[16, 17]),
        (&[40, 48], &[40, 48]),
        (&[200, 200], &[100, 200]),
    ];
    let mut compressed = 0;
    for meta in [4u8, 8] {
        for (chunk, block) in shapes {
            for kind in 0..4 {
                let c = case(32, meta, 1, chunk, block);
                let d = data(kind, c.nbytes(), 1, u64::from(meta) * 7 + kind as u64);
                let chunk = check(&c, &d, true).expect("compresses");
                compressed += usize::from(chunk.len() < d.len() / 2);
            }
        }
    }
    assert!(compressed >= 4, "only {compressed} cases shrank to half");
}

#[test]
fn ndlz_on_shuffled_split_streams_of_wider_items() {
    // Each byte stream of a split block is one plane of the block (as in the corpus' n23).
    for (meta, ts) in [(8u8, 4), (4, 2), (4, 8)] {
        let mut c = case(32, meta, ts, &[80, 96], &[40, 48]);
        c.filters = [1, 0, 0, 0, 0, 0];
        c.splitmode = 1;
        for kind in [0, 3] {
            let d = data(kind, c.nbytes() / ts as usize, ts as usize, 5);
            check(&c, &d, true).expect("compresses");
        }
        // Without splitting, a stream is the whole block, which NDLZ refuses.
        c.splitmode = 2;
        let d = data(0, c.nbytes() / ts as usize, ts as usize, 5);
        check(&c, &d, true);
    }
}

#[test]
fn ndlz_refusals_match() {
    // 3-D arrays, a cell meta other than 4 or 8, blocks smaller than a cell.
    for (meta, chunk, block) in [
        (4u8, &[8, 8, 8][..], &[4, 4, 4][..]),
        (5, &[32, 32], &[16, 16]),
        (8, &[8, 8], &[4, 4]),
        (4, &[6, 6], &[3, 3]),
    ] {
        let c = case(32, meta, 1, chunk, block);
        let d = data(3, c.nbytes(), 1, 1);
        check(&c, &d, true);
    }
}

#[test]
fn zfp_chunks_are_the_references() {
    let shapes: &[(&[i32], &[i32])] = &[
        (&[4000], &[1000]),
        (&[64, 64], &[16, 32]),
        (&[50, 40], &[25, 20]),
        (&[16, 16, 16], &[8, 8, 8]),
        (&[20, 16, 20], &[8, 8, 10]),
        (&[8, 8, 8, 8], &[4, 4, 4, 4]),
        (&[8, 12, 8, 6], &[4, 6, 4, 6]),
    ];
    for (code, metas) in [
        (33u8, [253u8, 250, 0]),
        (34, [12, 20, 1]),
        (35, [37, 50, 10]),
    ] {
        for ts in [4, 8] {
            for (chunk, block) in shapes {
                for &meta in &metas {
                    let c = case(code, meta, ts, chunk, block);
                    for kind in [0, 1] {
                        let d = data(kind, c.nbytes() / ts as usize, ts as usize, 9);
                        check(&c, &d, false);
                    }
                }
            }
        }
    }
}

#[test]
fn zfp_refusals_match() {
    for (code, ts, chunk, block) in [
        (33u8, 4, &[16, 16][..], &[2, 8][..]),
        (34, 2, &[16, 16], &[8, 8]),
        (35, 1, &[64], &[16]),
        (33, 4, &[8, 8, 8, 8, 8], &[4, 4, 4, 4, 4]),
    ] {
        let mut c = case(code, 10, ts, chunk, block);
        c.splitmode = 2;
        let d = data(0, c.nbytes() / ts as usize, ts as usize, 3);
        assert!(check(&c, &d, false).is_none());
    }
}

fn filtered(id: u8, meta: u8, ts: i32, chunk: &[i32], block: &[i32], codec: u8) -> Case {
    let mut c = case(codec, 0, ts, chunk, block);
    c.filters = [id, 1, 0, 0, 0, 0];
    c.filters_meta = [meta, 0, 0, 0, 0, 0];
    c
}

#[test]
fn ndcell_and_ndmean_chunks_are_the_references() {
    let shapes: &[(&[i32], &[i32])] = &[
        (&[1000], &[250]),
        (&[50, 40], &[20, 20]),
        (&[60, 30], &[30, 10]),
        (&[10, 30], &[2, 10]),
        (&[16, 16, 16], &[8, 8, 8]),
        (&[30, 12, 10], &[15, 6, 5]),
        (&[8, 8, 6, 10], &[4, 4, 3, 5]),
    ];
    let mut made = 0;
    for (chunk, block) in shapes {
        for meta in [2u8, 3, 4] {
            for ts in [4, 8] {
                for kind in [0, 1] {
                    let c = filtered(32, meta, ts, chunk, block, 5);
                    let d = data(kind, c.nbytes() / ts as usize, ts as usize, 4);
                    made += usize::from(check(&c, &d, true).is_some());
                    let c = filtered(33, meta, ts, chunk, block, 1);
                    made += usize::from(check(&c, &d, false).is_some());
                }
            }
        }
        let c = filtered(32, 4, 2, chunk, block, 5);
        let d = data(1, c.nbytes() / 2, 2, 4);
        made += usize::from(check(&c, &d, true).is_some());
    }
    assert!(made >= 150, "only {made} chunks made");
}

#[test]
fn ndcell_and_ndmean_refusals_match() {
    // NDMEAN takes only 4- and 8-byte items; cells larger than the block fail NDCELL.
    for (id, meta, ts, chunk, block) in [
        (33u8, 4u8, 2, &[32, 32][..], &[16, 16][..]),
        (32, 20, 4, &[32, 32], &[16, 16]),
    ] {
        let c = filtered(id, meta, ts, chunk, block, 5);
        let d = data(0, c.nbytes() / ts as usize, ts as usize, 2);
        check(&c, &d, true);
    }
}
