//! A `.tar.gz` of the generated files, built in the browser (pure Rust, no dependency).
//!
//! The tar is POSIX ustar with paths relative to `/` (`etc/nginx/nginx.conf`), so
//! `tar -xzf nginx-gen.tar.gz -C /` installs it. The gzip member uses stored (uncompressed)
//! deflate blocks: every gzip reader accepts them, and the files are a few kilobytes.

use nginx_gen_core::File;

const BLOCK: usize = 512;

fn octal(field: &mut [u8], value: u64) {
    let digits = field.len() - 1;
    let text = format!("{value:0digits$o}");
    field[..digits].copy_from_slice(&text.as_bytes()[text.len() - digits..]);
    field[digits] = 0;
}

fn header(path: &str, size: usize, mode: u32, kind: u8, mtime: u64) -> [u8; BLOCK] {
    let mut h = [0u8; BLOCK];
    let name = path.as_bytes();
    // Split long paths into prefix (155) and name (100) at a '/'.
    if name.len() <= 100 {
        h[..name.len()].copy_from_slice(name);
    } else {
        let cut = path[..path.len().min(156)].rfind('/').unwrap_or(0);
        h[..name.len() - cut - 1].copy_from_slice(&name[cut + 1..]);
        h[345..345 + cut].copy_from_slice(&name[..cut]);
    }
    octal(&mut h[100..108], u64::from(mode));
    octal(&mut h[108..116], 0);
    octal(&mut h[116..124], 0);
    octal(&mut h[124..136], size as u64);
    octal(&mut h[136..148], mtime);
    h[156] = kind;
    h[257..263].copy_from_slice(b"ustar\0");
    h[263..265].copy_from_slice(b"00");
    h[265..269].copy_from_slice(b"root");
    h[297..301].copy_from_slice(b"root");
    h[148..156].fill(b' ');
    let sum: u32 = h.iter().map(|&b| u32::from(b)).sum();
    octal(&mut h[148..155], u64::from(sum));
    h[155] = b' ';
    h
}

/// The tar archive of `files` (absolute paths become relative to `/`), with a directory
/// entry before the first file of each directory.
pub fn tar(files: &[File], mtime: u64) -> Vec<u8> {
    let mut out = Vec::new();
    let mut dirs: Vec<String> = Vec::new();
    for file in files {
        let rel = file.path.trim_start_matches('/');
        let mut dir = String::new();
        for part in rel
            .split('/')
            .rev()
            .skip(1)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
        {
            dir.push_str(part);
            dir.push('/');
            if !dirs.contains(&dir) {
                out.extend_from_slice(&header(&dir, 0, 0o755, b'5', mtime));
                dirs.push(dir.clone());
            }
        }
        let data = file.contents.as_bytes();
        out.extend_from_slice(&header(rel, data.len(), 0o644, b'0', mtime));
        out.extend_from_slice(data);
        out.resize(out.len().div_ceil(BLOCK) * BLOCK, 0);
    }
    out.resize(out.len() + 2 * BLOCK, 0);
    out
}

/// CRC-32 (IEEE), as gzip needs it.
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A gzip member holding `data` in stored deflate blocks.
pub fn gzip(data: &[u8], mtime: u32) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 8, 0];
    out.extend_from_slice(&mtime.to_le_bytes());
    out.extend_from_slice(&[0, 255]);
    let mut chunks = data.chunks(65_535).peekable();
    if chunks.peek().is_none() {
        out.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
    }
    while let Some(chunk) = chunks.next() {
        let len = chunk.len() as u16;
        out.push(u8::from(chunks.peek().is_none()));
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(chunk);
    }
    out.extend_from_slice(&crc32(data).to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

/// The `.tar.gz` of `files`.
pub fn tar_gz(files: &[File], mtime: u64) -> Vec<u8> {
    gzip(&tar(files, mtime), u32::try_from(mtime).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads back what [`gzip`] writes (stored blocks only).
    fn gunzip(gz: &[u8]) -> Vec<u8> {
        assert_eq!(&gz[..3], &[0x1f, 0x8b, 8]);
        let mut i = 10;
        let mut out = Vec::new();
        loop {
            let last = gz[i] & 1 == 1;
            assert_eq!(gz[i] & 0b110, 0, "stored block");
            let len = usize::from(u16::from_le_bytes([gz[i + 1], gz[i + 2]]));
            let nlen = u16::from_le_bytes([gz[i + 3], gz[i + 4]]);
            assert_eq!(!nlen as usize, len);
            out.extend_from_slice(&gz[i + 5..i + 5 + len]);
            i += 5 + len;
            if last {
                break;
            }
        }
        assert_eq!(
            u32::from_le_bytes(gz[i..i + 4].try_into().unwrap()),
            crc32(&out)
        );
        assert_eq!(
            u32::from_le_bytes(gz[i + 4..i + 8].try_into().unwrap()) as usize,
            out.len()
        );
        assert_eq!(gz.len(), i + 8);
        out
    }

    #[test]
    fn crc_of_known_text() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn gzip_round_trips_large_and_empty_data() {
        let big: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        assert_eq!(gunzip(&gzip(&big, 0)), big);
        assert!(gunzip(&gzip(&[], 0)).is_empty());
    }

    #[test]
    fn tar_lays_files_out_like_etc() {
        let files = [
            File {
                path: "/etc/nginx/nginx.conf".into(),
                contents: "a;\n".into(),
            },
            File {
                path: "/etc/nginx/conf.d/x.conf".into(),
                contents: "b".repeat(700),
            },
        ];
        let t = tar(&files, 1_700_000_000);
        assert_eq!(t.len() % BLOCK, 0);
        let names: Vec<String> = t
            .chunks(BLOCK)
            .filter(|b| &b[257..262] == b"ustar")
            .map(|b| {
                String::from_utf8_lossy(&b[..100])
                    .trim_end_matches('\0')
                    .to_owned()
            })
            .collect();
        assert_eq!(
            names,
            [
                "etc/",
                "etc/nginx/",
                "etc/nginx/nginx.conf",
                "etc/nginx/conf.d/",
                "etc/nginx/conf.d/x.conf"
            ]
        );
        let h = &t[2 * BLOCK..3 * BLOCK];
        let stored: u32 =
            u32::from_str_radix(std::str::from_utf8(&h[148..154]).unwrap(), 8).unwrap();
        let mut copy = h.to_vec();
        copy[148..156].fill(b' ');
        assert_eq!(stored, copy.iter().map(|&b| u32::from(b)).sum::<u32>());
        assert_eq!(gunzip(&tar_gz(&files, 5)), tar(&files, 5));
    }
}
