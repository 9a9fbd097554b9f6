//! Markdown pages for `kyaml fmt`: each fenced code block marked `yaml` or
//! `yml` (``` or ~~~, at any indentation) is formatted; its fence, its
//! indentation and every other byte of the page stay as they were.

/// A YAML block found in a page.
pub(crate) struct Block {
    /// The page's line (from 1) of the block's first line of text.
    pub(crate) line: usize,
    /// The indentation taken off its lines (that of its fence).
    pub(crate) indent: usize,
    /// The text, its indentation taken off, with `\n` line ends.
    pub(crate) text: Vec<u8>,
}

/// Rewrites `page`, giving each YAML block to `format`, which returns its
/// new text (`\n` line ends, without the block's indentation) or `None`
/// to leave it as written.
pub(crate) fn rewrite(page: &[u8], mut format: impl FnMut(&Block) -> Option<Vec<u8>>) -> Vec<u8> {
    let mut out = Vec::with_capacity(page.len());
    let lines = split_lines(page);
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        out.extend_from_slice(line);
        i += 1;
        let Some(fence) = Fence::open(line) else {
            continue;
        };
        let Some(close) = (i..lines.len()).find(|&j| fence.closes(lines[j])) else {
            // Not closed: the rest of the page is left alone.
            for line in &lines[i..] {
                out.extend_from_slice(line);
            }
            break;
        };
        let body = &lines[i..close];
        let formatted = match fence.yaml && !body.iter().all(|l| l.trim_ascii().is_empty()) {
            true => {
                let mut text = Vec::new();
                for line in body {
                    text.extend_from_slice(strip_indent(content(line), fence.indent));
                    text.push(b'\n');
                }
                let block = Block {
                    line: i + 1,
                    indent: fence.indent,
                    text,
                };
                format(&block)
            }
            false => None,
        };
        match formatted {
            Some(new) => {
                let end: &[u8] = if line.ends_with(b"\r\n") {
                    b"\r\n"
                } else {
                    b"\n"
                };
                let indent = &line[..fence.indent];
                for new_line in new.split_inclusive(|&b| b == b'\n') {
                    let new_line = new_line.strip_suffix(b"\n").unwrap_or(new_line);
                    if !new_line.is_empty() {
                        out.extend_from_slice(indent);
                    }
                    out.extend_from_slice(new_line);
                    out.extend_from_slice(end);
                }
            }
            None => {
                for line in body {
                    out.extend_from_slice(line);
                }
            }
        }
        out.extend_from_slice(lines[close]);
        i = close + 1;
    }
    out
}

/// `page` cut into lines, each with its line end.
fn split_lines(page: &[u8]) -> Vec<&[u8]> {
    page.split_inclusive(|&b| b == b'\n').collect()
}

/// A line without its line end.
fn content(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// `line` with up to `indent` leading spaces taken off.
fn strip_indent(line: &[u8], indent: usize) -> &[u8] {
    let spaces = line.iter().take(indent).take_while(|&&b| b == b' ').count();
    &line[spaces..]
}

/// An opening fence.
struct Fence {
    indent: usize,
    marker: u8,
    len: usize,
    yaml: bool,
}

impl Fence {
    fn open(line: &[u8]) -> Option<Fence> {
        let line = content(line);
        let indent = line.iter().take_while(|&&b| b == b' ').count();
        let rest = &line[indent..];
        let marker = *rest.first().filter(|&&b| b == b'`' || b == b'~')?;
        let len = rest.iter().take_while(|&&b| b == marker).count();
        let info = &rest[len..];
        if len < 3 || (marker == b'`' && info.contains(&b'`')) {
            return None;
        }
        let word = info
            .trim_ascii()
            .split(|&b| b.is_ascii_whitespace() || b == b'{' || b == b',')
            .next()
            .unwrap_or_default();
        let yaml = word.eq_ignore_ascii_case(b"yaml") || word.eq_ignore_ascii_case(b"yml");
        Some(Fence {
            indent,
            marker,
            len,
            yaml,
        })
    }

    fn closes(&self, line: &[u8]) -> bool {
        let line = content(line).trim_ascii();
        line.len() >= self.len && line.iter().all(|&b| b == self.marker)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_yaml_blocks_change_and_the_rest_stays() {
        let page = b"# T\n\n```yaml\na:  1\n```\n\n  ~~~ yml\n  b: 2\n  ~~~\n```json\n{}\n```\n";
        let got = rewrite(page, |block| {
            let mut text = b"X".to_vec();
            text.extend_from_slice(&block.text);
            Some(text)
        });
        let want = b"# T\n\n```yaml\nXa:  1\n```\n\n  ~~~ yml\n  Xb: 2\n  ~~~\n```json\n{}\n```\n";
        assert_eq!(String::from_utf8_lossy(&got), String::from_utf8_lossy(want));
        assert_eq!(rewrite(page, |_| None), page);
    }
}
