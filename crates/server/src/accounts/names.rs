//! Account names: 3 to 20 characters after NFKC, no spaces, no control,
//! invisible or direction characters (as seat names), of ASCII punctuation
//! only `_`, `-` and `.`; unique ignoring case and confusable characters.

use crate::api::is_unsafe_in_name;
use unicode_normalization::UnicodeNormalization;

/// The fewest and most characters of a name.
pub const NAME_CHARS: (usize, usize) = (3, 20);

/// A name that may be taken, with its keys of uniqueness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountName {
    /// The name as shown: NFKC of what was given.
    pub name: String,
    /// NFKC in lower case: no two accounts share it.
    pub key: String,
    /// Unicode's confusable skeleton (UTS #39) in lower case: no two accounts share it.
    pub skeleton: String,
}

/// Why a name is refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NameError {
    /// Too short or too long.
    #[error("a name has 3 to 20 characters")]
    Length,
    /// A character that is not allowed.
    #[error(
        "a name has letters, digits, `_`, `-` and `.`, no spaces and no control, invisible or direction characters"
    )]
    Character,
}

/// Checks a name and computes its keys.
pub fn check(given: &str) -> Result<AccountName, NameError> {
    let name: String = given.nfkc().collect();
    let count = name.chars().count();
    if !(NAME_CHARS.0..=NAME_CHARS.1).contains(&count) {
        return Err(NameError::Length);
    }
    let refused = |c: char| {
        is_unsafe_in_name(c)
            || c.is_whitespace()
            || (c.is_ascii() && !c.is_ascii_alphanumeric() && !matches!(c, '_' | '-' | '.'))
    };
    if name.chars().any(refused) {
        return Err(NameError::Character);
    }
    Ok(AccountName {
        key: key_of(&name),
        skeleton: unicode_security::skeleton(&name)
            .collect::<String>()
            .to_lowercase(),
        name,
    })
}

/// The key a name is looked up by: NFKC, lower case, NFKC again.
pub fn key_of(name: &str) -> String {
    name.nfkc()
        .collect::<String>()
        .to_lowercase()
        .nfkc()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_and_characters() {
        assert_eq!(check("ab"), Err(NameError::Length));
        assert_eq!(check("abcdefghijklmnopqrstu"), Err(NameError::Length));
        assert!(check("abc").is_ok());
        assert!(check("abcdefghijklmnopqrst").is_ok());
        assert_eq!(check("a b c"), Err(NameError::Character));
        assert_eq!(check("ab\u{200B}c"), Err(NameError::Character));
        assert_eq!(check("ab\u{202E}c"), Err(NameError::Character));
        assert_eq!(check("ab\u{7}c"), Err(NameError::Character));
        assert_eq!(check("<script>"), Err(NameError::Character));
        assert!(check("Ünal_1.x-y").is_ok());
        assert!(check("Пётр").is_ok());
    }

    #[test]
    fn nfkc_and_case_give_one_key() {
        let full_width = check("ＡＬＩＣＥ").unwrap();
        assert_eq!(full_width.name, "ALICE");
        assert_eq!(full_width.key, check("alice").unwrap().key);
        assert_eq!(check("Alice").unwrap().key, "alice");
    }

    #[test]
    fn confusables_share_a_skeleton() {
        let latin = check("alice").unwrap();
        // Cyrillic а (U+0430) for the Latin a.
        let cyrillic = check("\u{430}lice").unwrap();
        assert_ne!(latin.key, cyrillic.key);
        assert_eq!(latin.skeleton, cyrillic.skeleton);
        // l, 1 and I look alike.
        let l = check("paul").unwrap().skeleton;
        assert_eq!(check("pau1").unwrap().skeleton, l);
        assert_eq!(check("pauI").unwrap().skeleton, l);
        assert_ne!(check("paula").unwrap().skeleton, l);
    }
}
