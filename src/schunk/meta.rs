//! Fixed-length metalayers (in the frame header) and variable-length metalayers
//! (compressed, in the frame trailer).

use super::SuperChunk;
use crate::constants::MAX_OVERHEAD;
use crate::context::{CParams, Context, DParams};
use crate::error::{Error, Result};
use crate::frame::header::MAX_NAME_LEN;
use crate::frame::{Meta, MetaName, MAX_METALAYERS, MAX_VLMETALAYERS};
use crate::registry::plugins::MetaLookup;

fn find(list: &[Meta], name: &[u8]) -> Option<usize> {
    list.iter().position(|m| m.name == *name)
}

impl SuperChunk {
    /// Tells both contexts the typesize and the current metalayers of the super-chunk (the
    /// N-dimensional plugins read the `b2nd` one while they code a chunk).
    pub(crate) fn sync_plugin_meta(&mut self) {
        let metas: Vec<(MetaName, Vec<u8>)> = self
            .metalayers
            .iter()
            .map(|m| (m.name.clone(), m.content.clone()))
            .collect();
        let lookup: MetaLookup = std::sync::Arc::new(move |name: &str| {
            metas.iter().find(|m| m.0 == name).map(|m| m.1.clone())
        });
        let typesize = Some(self.cparams.typesize);
        for ctx in [&mut self.cctx, &mut self.dctx] {
            ctx.set_schunk_meta(Some(lookup.clone()));
            ctx.set_schunk_typesize(typesize);
        }
    }

    /// The fixed-length metalayers.
    pub fn metalayers(&self) -> &[Meta] {
        &self.metalayers
    }

    /// Index of metalayer `name`.
    pub fn meta_exists(&self, name: impl AsRef<[u8]>) -> Result<usize> {
        let name = name.as_ref();
        if name.len() > MAX_NAME_LEN {
            return Err(Error::InvalidParam);
        }
        find(&self.metalayers, name).ok_or(Error::NotFound)
    }

    /// Adds a metalayer (frames accept them only before the first chunk); returns its index.
    pub fn meta_add(&mut self, name: impl AsRef<[u8]>, content: &[u8]) -> Result<usize> {
        let name = name.as_ref();
        if find(&self.metalayers, name).is_some()
            || self.metalayers.len() >= MAX_METALAYERS
            || name.len() > MAX_NAME_LEN && self.has_frame()
        {
            return Err(Error::InvalidParam);
        }
        if self.has_frame() && self.nchunks() > 0 {
            return Err(Error::InvalidParam);
        }
        self.metalayers.push(Meta {
            name: MetaName::from(name),
            content: content.to_vec(),
        });
        if let Err(e) = self.commit() {
            self.metalayers.pop();
            return Err(e);
        }
        self.sync_plugin_meta();
        Ok(self.metalayers.len() - 1)
    }

    /// Overwrites the start of metalayer `name` with `content`, keeping its length as the
    /// reference does (a longer content is ignored). Returns its index.
    pub fn meta_update(&mut self, name: impl AsRef<[u8]>, content: &[u8]) -> Result<usize> {
        let name = name.as_ref();
        let i = find(&self.metalayers, name).ok_or(Error::NotFound)?;
        if content.len() > self.metalayers[i].content.len() {
            return Ok(i);
        }
        let mut new = self.metalayers[i].content.clone();
        new[..content.len()].copy_from_slice(content);
        let old = std::mem::replace(&mut self.metalayers[i].content, new);
        if let Err(e) = self.commit() {
            self.metalayers[i].content = old;
            return Err(e);
        }
        self.sync_plugin_meta();
        Ok(i)
    }

    /// The variable-length metalayers (contents compressed).
    pub fn vlmetalayers(&self) -> &[Meta] {
        &self.vlmetalayers
    }

    /// Index of variable-length metalayer `name`.
    pub fn vlmeta_exists(&self, name: impl AsRef<[u8]>) -> Result<usize> {
        let name = name.as_ref();
        if name.len() > MAX_NAME_LEN {
            return Err(Error::InvalidParam);
        }
        find(&self.vlmetalayers, name).ok_or(Error::NotFound)
    }

    fn vlmeta_compress(content: &[u8], cparams: Option<CParams>) -> Result<Vec<u8>> {
        let mut cp = cparams.unwrap_or_default();
        cp.nthreads = cp.nthreads.max(1);
        let mut out = vec![0u8; content.len() + MAX_OVERHEAD];
        let n = Context::compressor(cp).compress(content, &mut out)?;
        if n == 0 {
            return Err(Error::WriteBuffer);
        }
        out.truncate(n);
        Ok(out)
    }

    /// Adds a variable-length metalayer, compressed with `cparams` (defaults when `None`).
    pub fn vlmeta_add(
        &mut self,
        name: impl AsRef<[u8]>,
        content: &[u8],
        cparams: Option<CParams>,
    ) -> Result<usize> {
        let name = name.as_ref();
        if name.len() > MAX_NAME_LEN
            || find(&self.vlmetalayers, name).is_some()
            || self.vlmetalayers.len() >= MAX_VLMETALAYERS
        {
            return Err(Error::InvalidParam);
        }
        let content = SuperChunk::vlmeta_compress(content, cparams)?;
        self.vlmetalayers.push(Meta {
            name: MetaName::from(name),
            content,
        });
        if let Err(e) = self.commit() {
            self.vlmetalayers.pop();
            return Err(e);
        }
        Ok(self.vlmetalayers.len() - 1)
    }

    /// Replaces the content of variable-length metalayer `name`; returns its index.
    pub fn vlmeta_update(
        &mut self,
        name: impl AsRef<[u8]>,
        content: &[u8],
        cparams: Option<CParams>,
    ) -> Result<usize> {
        let name = name.as_ref();
        let i = self.vlmeta_exists(name)?;
        let content = SuperChunk::vlmeta_compress(content, cparams)?;
        let old = std::mem::replace(&mut self.vlmetalayers[i].content, content);
        if let Err(e) = self.commit() {
            self.vlmetalayers[i].content = old;
            return Err(e);
        }
        Ok(i)
    }

    /// The decompressed content of variable-length metalayer `name`, with its index. As in
    /// the reference, a stored content whose chunk header gives another compressed size is
    /// corrupt data, and one that does not decode to the size it gives is a read error.
    pub fn vlmeta_get(&self, name: impl AsRef<[u8]>) -> Result<(usize, Vec<u8>)> {
        let name = name.as_ref();
        let i = self.vlmeta_exists(name)?;
        let c = &self.vlmetalayers[i].content;
        if usize::try_from(crate::chunk::Header::parse(c)?.cbytes).ok() != Some(c.len()) {
            return Err(Error::Data);
        }
        let mut out = vec![0u8; super::chunks::nbytes_of(c)?];
        let mut ctx = Context::decompressor(DParams::default());
        match ctx.decompress(c, &mut out) {
            Ok(n) if n == out.len() => Ok((i, out)),
            _ => Err(Error::ReadBuffer),
        }
    }

    /// Removes variable-length metalayer `name`; returns how many remain.
    pub fn vlmeta_delete(&mut self, name: impl AsRef<[u8]>) -> Result<usize> {
        let name = name.as_ref();
        let i = self.vlmeta_exists(name)?;
        let old = self.vlmetalayers.remove(i);
        if let Err(e) = self.commit() {
            self.vlmetalayers.insert(i, old);
            return Err(e);
        }
        Ok(self.vlmetalayers.len())
    }

    /// The names of the variable-length metalayers.
    pub fn vlmeta_names(&self) -> Vec<&MetaName> {
        self.vlmetalayers.iter().map(|m| &m.name).collect()
    }
}
