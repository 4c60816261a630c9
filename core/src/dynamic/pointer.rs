//! RFC 6901 JSON Pointers.

/// One step of a path: an object key or an array index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Segment {
    Key(Box<str>),
    Index(usize),
}

/// Appends `/segment` to `pointer`, escaping `~` as `~0` and `/` as `~1`.
pub(crate) fn push_pointer(pointer: &mut String, segment: &Segment) {
    pointer.push('/');
    match segment {
        Segment::Index(i) => pointer.push_str(&i.to_string()),
        Segment::Key(key) => {
            for c in key.chars() {
                match c {
                    '~' => pointer.push_str("~0"),
                    '/' => pointer.push_str("~1"),
                    c => pointer.push(c),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_tilde_and_slash() {
        let mut p = String::new();
        push_pointer(&mut p, &Segment::Key("a/b~c".into()));
        push_pointer(&mut p, &Segment::Index(3));
        assert_eq!(p, "/a~1b~0c/3");
    }
}
