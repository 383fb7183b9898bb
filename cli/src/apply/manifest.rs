//! The manifest of the files `apply` owns (`/var/lib/nginx-gen/manifest.json`): each
//! install path with the SHA-256 of what was installed, and the command that produced them.
//! A later run removes the files it owned that its inputs no longer produce (a site file
//! for another server name) and never touches files it does not own.

use std::fmt::Write as _;

use serde_json::{Value, json};

/// Where the manifest lives, as an install path.
pub const PATH: &str = "/var/lib/nginx-gen/manifest.json";
/// Where the backup sets live, as an install path.
pub const BACKUPS: &str = "/var/lib/nginx-gen/backups";

/// The files one `apply` installed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Manifest {
    /// The command that reproduces the files (`Plan::command`).
    pub command: String,
    /// The backup set made by the run that wrote this manifest.
    pub backup: String,
    /// (install path, sha256 hex) in install order.
    pub files: Vec<(String, String)>,
}

impl Manifest {
    /// The manifest as JSON text (one trailing newline).
    pub fn to_json(&self) -> String {
        let files: Vec<Value> = self
            .files
            .iter()
            .map(|(path, sha)| json!({ "path": path, "sha256": sha }))
            .collect();
        let doc = json!({
            "tool": format!("nginx-gen {}", env!("CARGO_PKG_VERSION")),
            "policy": nginx_gen_core::POLICY_VERSION,
            "command": self.command,
            "backup": self.backup,
            "files": files,
        });
        format!("{doc:#}\n")
    }

    /// Reads a manifest; a file that is not one is an error naming what is wrong.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let doc: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let text_of = |key: &str| doc.get(key).and_then(Value::as_str).unwrap_or_default();
        let files = doc
            .get("files")
            .and_then(Value::as_array)
            .ok_or("no \"files\" list")?
            .iter()
            .map(|f| {
                let path = f.get("path").and_then(Value::as_str);
                let sha = f.get("sha256").and_then(Value::as_str);
                match (path, sha) {
                    (Some(p), Some(s)) if p.starts_with('/') && !p.contains("..") => {
                        Ok((p.to_owned(), s.to_owned()))
                    }
                    _ => Err(format!(
                        "a file entry without an absolute path and sha256: {f}"
                    )),
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            command: text_of("command").to_owned(),
            backup: text_of("backup").to_owned(),
            files,
        })
    }
}

/// SHA-256 of `data`, lowercase hex (FIPS 180-4; the same as `sha256sum`).
#[allow(
    clippy::many_single_char_names,
    reason = "the standard's names, so the code reads against FIPS 180-4"
)]
pub fn sha256_hex(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a_2f98,
        0x7137_4491,
        0xb5c0_fbcf,
        0xe9b5_dba5,
        0x3956_c25b,
        0x59f1_11f1,
        0x923f_82a4,
        0xab1c_5ed5,
        0xd807_aa98,
        0x1283_5b01,
        0x2431_85be,
        0x550c_7dc3,
        0x72be_5d74,
        0x80de_b1fe,
        0x9bdc_06a7,
        0xc19b_f174,
        0xe49b_69c1,
        0xefbe_4786,
        0x0fc1_9dc6,
        0x240c_a1cc,
        0x2de9_2c6f,
        0x4a74_84aa,
        0x5cb0_a9dc,
        0x76f9_88da,
        0x983e_5152,
        0xa831_c66d,
        0xb003_27c8,
        0xbf59_7fc7,
        0xc6e0_0bf3,
        0xd5a7_9147,
        0x06ca_6351,
        0x1429_2967,
        0x27b7_0a85,
        0x2e1b_2138,
        0x4d2c_6dfc,
        0x5338_0d13,
        0x650a_7354,
        0x766a_0abb,
        0x81c2_c92e,
        0x9272_2c85,
        0xa2bf_e8a1,
        0xa81a_664b,
        0xc24b_8b70,
        0xc76c_51a3,
        0xd192_e819,
        0xd699_0624,
        0xf40e_3585,
        0x106a_a070,
        0x19a4_c116,
        0x1e37_6c08,
        0x2748_774c,
        0x34b0_bcb5,
        0x391c_0cb3,
        0x4ed8_aa4a,
        0x5b9c_ca4f,
        0x682e_6ff3,
        0x748f_82ee,
        0x78a5_636f,
        0x84c8_7814,
        0x8cc7_0208,
        0x90be_fffa,
        0xa450_6ceb,
        0xbef9_a3f7,
        0xc671_78f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09_e667,
        0xbb67_ae85,
        0x3c6e_f372,
        0xa54f_f53a,
        0x510e_527f,
        0x9b05_688c,
        0x1f83_d9ab,
        0x5be0_cd19,
    ];
    let mut message = data.to_vec();
    let bits = (data.len() as u64).wrapping_mul(8);
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&bits.to_be_bytes());
    for block in message.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = String::with_capacity(64);
    for word in h {
        let _ = write!(out, "{word:08x}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Manifest, sha256_hex};

    #[test]
    fn sha256_matches_the_standard_vectors() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            sha256_hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
    }

    #[test]
    fn manifest_round_trips_and_rejects_relative_paths() {
        let m = Manifest {
            command: "nginx-gen --no-detect".into(),
            backup: "1".into(),
            files: vec![("/etc/nginx/nginx.conf".into(), sha256_hex(b"x"))],
        };
        assert_eq!(Manifest::from_json(&m.to_json()).unwrap(), m);
        assert!(Manifest::from_json(r#"{"files":[{"path":"etc/x","sha256":"0"}]}"#).is_err());
        assert!(Manifest::from_json(r#"{"files":[{"path":"/etc/../x","sha256":"0"}]}"#).is_err());
        assert!(Manifest::from_json("not json").is_err());
    }
}
