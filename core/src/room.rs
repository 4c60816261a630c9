//! Room that a complete value's growth left and no longer needs, given back, so that a
//! draft holds about what its value takes (the schema-less tree and the typed drafts).

/// The least room given back: a reallocation per small value would cost more time than
/// the bytes are worth.
pub(crate) const SHRINK_AT: usize = 16;

/// Gives back a complete vector's spare room, when it is [`SHRINK_AT`] bytes or more.
pub(crate) fn give_back<T>(items: &mut Vec<T>) {
    let spare = (items.capacity() - items.len()).saturating_mul(std::mem::size_of::<T>());
    if spare >= SHRINK_AT {
        items.shrink_to_fit();
    }
}

/// Gives back a complete string's spare room, when it is [`SHRINK_AT`] bytes or more.
pub(crate) fn give_back_text(text: &mut String) {
    if text.capacity() - text.len() >= SHRINK_AT {
        text.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_room_worth_a_reallocation_is_given_back() {
        let mut small = String::with_capacity(20);
        small.push_str("abcdef");
        give_back_text(&mut small);
        assert_eq!(small.capacity(), 20);
        let mut large = String::with_capacity(64);
        large.push_str("abcdef");
        give_back_text(&mut large);
        assert_eq!((large.as_str(), large.capacity()), ("abcdef", 6));
        let mut items: Vec<u32> = Vec::with_capacity(3);
        items.push(1);
        give_back(&mut items);
        assert_eq!(items.capacity(), 3);
        items.reserve_exact(61);
        give_back(&mut items);
        assert_eq!((items.as_slice(), items.capacity()), (&[1][..], 1));
        let mut units = vec![(); 3];
        give_back(&mut units);
        assert_eq!(units.len(), 3);
    }
}
