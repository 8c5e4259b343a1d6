//! Entity handles and the arenas that own them.
//!
//! Every IR object (operation, value, block, region) lives in an arena owned by a
//! [`crate::Module`] and is named by a `u32` handle, in the style of Cranelift's
//! `PrimaryMap`. Handles are `Copy`, hash cheaply and compare by identity; the arena
//! never moves or reuses a slot, so a handle stays valid (possibly pointing at an
//! erased entity) for the life of the module, and iteration order is allocation order,
//! which keeps every walk deterministic.

use std::fmt;
use std::marker::PhantomData;

/// A `u32` handle into an [`Arena`].
pub trait EntityRef: Copy + Eq {
    fn new(index: usize) -> Self;
    fn index(self) -> usize;
}

macro_rules! entity {
    ($(#[$meta:meta])* $name:ident, $prefix:literal) => {
        $(#[$meta])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(u32);

        impl $crate::entity::EntityRef for $name {
            fn new(index: usize) -> Self {
                $name(u32::try_from(index).expect("more than 2^32 IR entities"))
            }
            fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}
pub(crate) use entity;

/// Append-only storage of entities of type `V` named by handles `K`.
#[derive(Clone)]
pub struct Arena<K: EntityRef, V> {
    items: Vec<V>,
    key: PhantomData<K>,
}

impl<K: EntityRef, V> Arena<K, V> {
    pub fn new() -> Self {
        Arena { items: Vec::new(), key: PhantomData }
    }

    pub fn push(&mut self, value: V) -> K {
        let key = K::new(self.items.len());
        self.items.push(value);
        key
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn keys(&self) -> impl Iterator<Item = K> + use<K, V> {
        (0..self.items.len()).map(K::new)
    }
}

impl<K: EntityRef, V> Default for Arena<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: EntityRef, V> std::ops::Index<K> for Arena<K, V> {
    type Output = V;
    fn index(&self, key: K) -> &V {
        &self.items[key.index()]
    }
}

impl<K: EntityRef, V> std::ops::IndexMut<K> for Arena<K, V> {
    fn index_mut(&mut self, key: K) -> &mut V {
        &mut self.items[key.index()]
    }
}

impl<K: EntityRef, V: fmt::Debug> fmt::Debug for Arena<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.items.iter()).finish()
    }
}

/// A map from handles to `V` that is dense over the arena (like Cranelift's
/// `SecondaryMap`): reading a key never stored yields the default.
#[derive(Clone, Debug)]
pub struct SecondaryMap<K: EntityRef, V: Clone> {
    items: Vec<V>,
    default: V,
    key: PhantomData<K>,
}

impl<K: EntityRef, V: Clone> SecondaryMap<K, V> {
    pub fn with_default(default: V) -> Self {
        SecondaryMap { items: Vec::new(), default, key: PhantomData }
    }

    pub fn get(&self, key: K) -> &V {
        self.items.get(key.index()).unwrap_or(&self.default)
    }

    pub fn set(&mut self, key: K, value: V) {
        let i = key.index();
        if i >= self.items.len() {
            self.items.resize(i + 1, self.default.clone());
        }
        self.items[i] = value;
    }
}

impl<K: EntityRef, V: Clone + Default> SecondaryMap<K, V> {
    pub fn new() -> Self {
        Self::with_default(V::default())
    }
}

impl<K: EntityRef, V: Clone + Default> Default for SecondaryMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}
