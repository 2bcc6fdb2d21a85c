//! Resolution of type strings and preset definitions into graph nodes.

use std::sync::Arc;

use super::builtins::{builtin, fallback_alias, Builtin};
use super::Registry;
use crate::error::Error;
use crate::graph::{BitStore, Field, Fields, Name, Node, Prim, Special, TypeIdx, Variant};
use crate::preset::{Definition, EnumVariants, NamedDefinition, TypeRef};
use crate::typestr::{parse, TypeExpr};

/// How many definitions may be in compilation at once (alias chains and
/// nested definitions); keeps hostile presets from exhausting the stack.
const MAX_DEFINITION_DEPTH: usize = 200;

/// Distinct type strings remembered verbatim before that cache starts over.
const MAX_CACHED_STRINGS: usize = 1 << 16;

/// Longest alias chain followed when looking for a generic's base class.
const MAX_BASE_ALIASES: usize = 64;

/// A definition being compiled.
#[derive(Clone, Debug)]
struct Frame {
    key: String,
    name: String,
    def: Arc<NamedDefinition>,
    /// The definition reserved a placeholder node (struct, enum, tuple, set):
    /// recursion through it terminates.
    reserved: bool,
}

/// State of one top-level resolution.
struct Resolution<'r> {
    registry: &'r mut Registry,
    /// The type string being resolved (for error messages).
    input: String,
    stack: Vec<Frame>,
}

impl Registry {
    /// Resolves a type string to a node: parsed once, then cached by the
    /// string and by its canonical form until definitions change.
    pub fn resolve(&mut self, type_string: &str) -> Result<TypeIdx, Error> {
        self.sync_cache();
        if let Some(&idx) = self.strings.get(type_string) {
            return Ok(idx);
        }
        if self.strings.len() > MAX_CACHED_STRINGS {
            // Callers passing ever-new strings must not grow the cache unbounded.
            self.strings.clear();
        }
        // py-scale-codec looks the whole (rewritten) string up as a key first,
        // which also finds names that are not valid type strings ("Asset.Balance").
        let raw_key = crate::typestr::rewrite_text(type_string).0.to_lowercase();
        let idx = match self.defs.get(raw_key.trim()).cloned() {
            Some(def) => Resolution::new(self, type_string).definition(&def, raw_key.trim())?,
            None => {
                let expr = parse(type_string)?;
                Resolution::new(self, type_string).expr(&expr)?
            }
        };
        self.not_missing(idx, type_string)?;
        self.strings.insert(type_string.to_string(), idx);
        Ok(idx)
    }

    /// The node `type_string` (exactly as given) already resolved to, when it
    /// is in the cache and the definitions have not changed since: a
    /// look-up through `&self`, for callers sharing the registry read-only.
    pub fn resolve_cached(&self, type_string: &str) -> Option<TypeIdx> {
        if self.cache_generation != self.defs.generation() {
            return None;
        }
        self.strings.get(type_string).copied()
    }

    /// Resolves a parsed type expression.
    pub fn resolve_expr(&mut self, expr: &TypeExpr) -> Result<TypeIdx, Error> {
        self.sync_cache();
        let input = expr.to_string();
        let idx = Resolution::new(self, &input).expr(expr)?;
        self.not_missing(idx, &input)?;
        Ok(idx)
    }

    /// Like [`Registry::resolve`], but also fails when any type reachable from
    /// the result could not be found (py-scale-codec would fail decoding a
    /// value that reaches it). Names py-scale-codec resolves to classes it
    /// cannot decode (`TypeNotSupported`, bare `BoundedVec` …) do not count.
    pub fn resolve_strict(&mut self, type_string: &str) -> Result<TypeIdx, Error> {
        let root = self.resolve(type_string)?;
        let mut seen = std::collections::HashSet::new();
        let mut todo = vec![root];
        while let Some(idx) = todo.pop() {
            if !seen.insert(idx) {
                continue;
            }
            if let Some((name, what)) = self.unknown_nodes.get(&idx) {
                return Err(Error::unknown_type(
                    name.to_string(),
                    format!("{what} '{name}', reached from type string {type_string:?}"),
                ));
            }
            if let Some(node) = self.graph.get(idx) {
                children(node, &mut todo);
            }
        }
        Ok(root)
    }

    /// The error for a node standing for a name that could not be found.
    fn not_missing(&self, idx: TypeIdx, input: &str) -> Result<(), Error> {
        match self.unknown_nodes.get(&idx) {
            Some((name, what)) => {
                let at = input
                    .to_lowercase()
                    .find(&name.to_lowercase())
                    .map(|o| format!(" at offset {o}"))
                    .unwrap_or_default();
                Err(Error::unknown_type(
                    name.to_string(),
                    format!("{what} '{name}' in type string {input:?}{at}"),
                ))
            }
            None => Ok(()),
        }
    }

    /// Drops cached resolutions when definitions changed since they were made.
    fn sync_cache(&mut self) {
        if self.cache_generation != self.defs.generation() {
            self.cache.clear();
            self.strings.clear();
            self.cache_generation = self.defs.generation();
        }
    }

    /// The node for a built-in without inner types, shared by every use.
    fn builtin_node(&mut self, key: &str, node: Node) -> TypeIdx {
        if let Some(&idx) = self.builtin_nodes.get(key) {
            return idx;
        }
        let idx = self.graph.add(node, Some(Name::from(key)));
        self.builtin_nodes.insert(key.to_string(), idx);
        idx
    }
}

fn arg_count_error(name: &str, want: &str, got: usize) -> Error {
    Error::unknown_type(
        name,
        format!("'{name}' takes {want} type argument(s), got {got}"),
    )
}

fn bit_store(prim: Prim) -> Option<u8> {
    Some(match prim {
        Prim::U8 => 1,
        Prim::U16 => 2,
        Prim::U32 => 4,
        Prim::U64 => 8,
        Prim::U128 => 16,
        _ => return None,
    })
}

impl<'r> Resolution<'r> {
    fn new(registry: &'r mut Registry, input: &str) -> Self {
        Resolution {
            registry,
            input: input.to_string(),
            stack: Vec::new(),
        }
    }

    /// "`name` in "input" (via A → B)": where an unknown name was met.
    fn unknown(&self, name: &str, what: &str) -> Error {
        let lower_input = self.input.to_lowercase();
        let at = lower_input
            .find(&name.to_lowercase())
            .map(|o| format!(" at offset {o}"))
            .unwrap_or_default();
        let via = if self.stack.is_empty() {
            String::new()
        } else {
            let chain: Vec<&str> = self.stack.iter().map(|f| f.name.as_str()).collect();
            format!(" (via the definition of {})", chain.join(" → "))
        };
        Error::unknown_type(
            name,
            format!("{what} '{name}' in type string {:?}{at}{via}", self.input),
        )
    }

    /// A name that cannot be found. py-scale-codec fails on it only when it is
    /// decoded (`Vec<Unknown>` of zero elements decodes), so it becomes a node
    /// whose decoding fails; [`Registry::resolve`] turns it into an error when
    /// it is the whole type, and [`Registry::resolve_strict`] when it is reachable.
    fn missing(&mut self, name: &str, what: &str) -> TypeIdx {
        let idx = self.registry.graph.add(
            Node::Unresolved(Name::from(format!("{name} ({what})"))),
            Some(Name::from(name)),
        );
        self.registry
            .unknown_nodes
            .insert(idx, (name.to_string(), what.to_string()));
        idx
    }

    fn cached(&self, key: &str) -> Option<TypeIdx> {
        self.registry.cache.get(key).copied()
    }

    fn remember(&mut self, key: &str, idx: TypeIdx) {
        self.registry.cache.insert(key.to_string(), idx);
    }

    /// Resolves a type expression.
    fn expr(&mut self, expr: &TypeExpr) -> Result<TypeIdx, Error> {
        let key = expr.key();
        if let Some(idx) = self.cached(&key) {
            return Ok(idx);
        }
        if let TypeExpr::ScaleInfo(id) = expr {
            let found = self.registry.portable.as_ref().map(|p| p.idx(*id));
            return Ok(match found {
                Some(Some(idx)) => idx,
                Some(None) => {
                    self.missing(&expr.to_string(), "the portable registry has no such type")
                }
                None => self.missing(&expr.to_string(), "no portable registry is loaded"),
            });
        }
        if let TypeExpr::Path(name) = expr {
            if name.contains("::") {
                if let Some(idx) = self.registry.portable.as_ref().and_then(|p| p.lookup(name)) {
                    return Ok(idx);
                }
            }
        }
        if let Some(def) = self.registry.defs.get(&key).cloned() {
            return self.definition(&def, &key);
        }
        let idx = match expr {
            TypeExpr::Path(name) => self.named(name, &key)?,
            TypeExpr::Generic(base, args) => self.generic(base, args)?,
            TypeExpr::Tuple(items) => {
                let items = items
                    .iter()
                    .map(|item| self.expr(item))
                    .collect::<Result<Vec<_>, _>>()?;
                self.add(Node::Tuple(items), &key, expr)
            }
            TypeExpr::Array(inner, len) => {
                let inner_idx = self.expr(inner)?;
                let len = u32::try_from(*len)
                    .map_err(|_| self.unknown(&expr.to_string(), "array length too large in"))?;
                // `[u8; 0]` is an empty list, not "0x" (py-scale-codec 1.2.12
                // renders a zero-length array as `[]` whatever its element).
                let node = if self.is_u8(inner_idx) && len > 0 {
                    Node::ByteArray(len)
                } else {
                    Node::Array(inner_idx, len)
                };
                self.add(node, &key, expr)
            }
            TypeExpr::ByteSlice => self.builtin(Builtin::Bytes, "bytes")?,
            TypeExpr::ScaleInfo(_) => unreachable!("handled above"),
            TypeExpr::Qualified { .. } => self.missing(&expr.to_string(), "no definition"),
        };
        self.remember(&key, idx);
        Ok(idx)
    }

    fn add(&mut self, node: Node, key: &str, expr: &TypeExpr) -> TypeIdx {
        let _ = key;
        self.registry
            .graph
            .add(node, Some(Name::from(expr.to_string())))
    }

    fn is_u8(&self, idx: TypeIdx) -> bool {
        matches!(self.registry.graph.get(idx), Some(Node::Prim(Prim::U8)))
    }

    /// A plain name: built-in class, else a `core.json` fallback, else a
    /// one-segment path of the portable registry (`Cow`: py-scale-codec
    /// registers every path as a type string), else unknown.
    fn named(&mut self, name: &str, key: &str) -> Result<TypeIdx, Error> {
        if let Some(b) = builtin(key) {
            return self.builtin(b, key);
        }
        if let Some(target) = fallback_alias(key) {
            return self.expr(&TypeExpr::path(target));
        }
        if let Some(idx) = self.registry.portable.as_ref().and_then(|p| p.lookup(name)) {
            return Ok(idx);
        }
        Ok(self.missing(name, "unknown type"))
    }

    /// The struct of a built-in class's own `type_mapping`, made once per class.
    fn builtin_struct(&mut self, mapping: &[(&str, &str)], key: &str) -> Result<TypeIdx, Error> {
        let key = format!("\u{0}{key}");
        if let Some(idx) = self.cached(&key) {
            return Ok(idx);
        }
        let mut fields = Vec::with_capacity(mapping.len());
        for (name, ty) in mapping {
            fields.push(Field {
                name: Name::from(*name),
                ty: self.expr(&parse(ty)?)?,
            });
        }
        let idx = self.registry.graph.add(Node::Struct(fields), None);
        self.remember(&key, idx);
        Ok(idx)
    }

    /// The pre-digest type `name` a pre-runtime item's data decodes as; when
    /// no preset defines it, a node that fails to decode (the data stays
    /// hex), not an unknown type: the item itself is still known.
    fn pre_digest(&mut self, name: &str) -> Result<TypeIdx, Error> {
        if self.registry.defs.get(&name.to_lowercase()).is_some() {
            return self.expr(&TypeExpr::path(name));
        }
        let reason = format!("{name} (no preset defines it)");
        Ok(self
            .registry
            .graph
            .add(Node::Unresolved(Name::from(reason)), None))
    }

    /// A built-in class used without type arguments.
    fn builtin(&mut self, b: Builtin, key: &str) -> Result<TypeIdx, Error> {
        let node = match b {
            Builtin::Prim(p) => Node::Prim(p),
            Builtin::Null => Node::Null,
            Builtin::Bytes => Node::Bytes,
            Builtin::ByteArray(n) => Node::ByteArray(n),
            Builtin::Compact(Some(p)) => {
                let inner = self.builtin(Builtin::Prim(p), p.rust_name())?;
                Node::Compact(inner)
            }
            Builtin::OptionBytes => {
                let inner = self.builtin(Builtin::Bytes, "bytes")?;
                Node::Option(inner)
            }
            Builtin::BitVec => Node::BitSeq {
                store: BitStore::U8,
                lsb0: true,
            },
            Builtin::Special(s) => Node::Special(s),
            Builtin::MultiAddress => return self.multi_address(),
            Builtin::StorageHasher => values_enum(&[
                "Blake2_128",
                "Blake2_256",
                "Blake2_128Concat",
                "Twox128",
                "Twox256",
                "Twox64Concat",
                "Identity",
            ]),
            Builtin::Conviction => values_enum(&[
                "None", "Locked1x", "Locked2x", "Locked3x", "Locked4x", "Locked5x", "Locked6x",
            ]),
            Builtin::Struct(mapping) => return self.builtin_struct(mapping, key),
            Builtin::PreRuntime(mapping) => {
                let fields = self.builtin_struct(mapping, key)?;
                let babe = self.pre_digest("RawBabePreDigest")?;
                let aura = self.pre_digest("RawAuraPreDigest")?;
                Node::Special(Special::PreRuntime { fields, babe, aura })
            }
            // py-scale-codec resolves these names to a class that fails when
            // decoding (no sub_type, no type_mapping, or no decoder at all):
            // so do we, with a node whose decoding fails naming the reason.
            Builtin::Compact(None)
            | Builtin::Vec
            | Builtin::Option
            | Builtin::Map
            | Builtin::Result => {
                Node::Unresolved(Name::from(format!("{key} (used without type arguments)")))
            }
            Builtin::Shape(class) => Node::Unresolved(Name::from(format!(
                "{class} (a class that needs a type_mapping)"
            ))),
            Builtin::Unsupported(class) => Node::Unresolved(Name::from(format!(
                "{class} (py-scale-codec cannot decode it either)"
            ))),
        };
        Ok(self.registry.builtin_node(key, node))
    }

    /// py-scale-codec's `GenericMultiAddress` enum, its types resolved through
    /// the registry (so preset `AccountId`/`AccountIndex` apply).
    fn multi_address(&mut self) -> Result<TypeIdx, Error> {
        let key = "\u{0}genericmultiaddress";
        if let Some(idx) = self.cached(key) {
            return Ok(idx);
        }
        let mut variants = Vec::with_capacity(5);
        for (index, (name, ty)) in [
            ("Id", "AccountId"),
            ("Index", "Compact<AccountIndex>"),
            ("Raw", "HexBytes"),
            ("Address32", "H256"),
            ("Address20", "H160"),
        ]
        .into_iter()
        .enumerate()
        {
            let ty = self.expr(&parse(ty)?)?;
            variants.push(Variant {
                index: index as u8,
                name: Name::from(name),
                fields: Fields::Unnamed(vec![ty]),
            });
        }
        let inner = self.registry.graph.add(Node::Enum(variants), None);
        let idx = self.registry.graph.add(
            Node::Special(Special::MultiAddress(inner)),
            Some(Name::from("GenericMultiAddress")),
        );
        self.remember(key, idx);
        Ok(idx)
    }

    /// `Base<args…>`.
    fn generic(&mut self, base: &str, args: &[TypeExpr]) -> Result<TypeIdx, Error> {
        let mut name = base.to_string();
        let mut seen: Vec<String> = Vec::new();
        for _ in 0..MAX_BASE_ALIASES {
            let key = name.to_lowercase();
            // A base alias chain that comes back (`"Vec": "Vec"`) means the
            // class the name had before: the built-in one.
            let looped = seen.contains(&key);
            seen.push(key.clone());
            if let Some(def) = self.registry.defs.get(&key).cloned().filter(|_| !looped) {
                // py-scale-codec subclasses the definition's class and sets a
                // sub_type that only generic classes read: follow aliases to a
                // bare class name; any other definition ignores the arguments.
                if let Definition::Alias(target) = &def.def {
                    if let Ok(TypeExpr::Path(next)) = parse(target) {
                        name = next;
                        continue;
                    }
                }
                return self.definition(&def, &key);
            }
            if let Some(b) = builtin(&key) {
                return self.apply(b, &name, args);
            }
            if let Some(target) = fallback_alias(&key) {
                name = target.to_string();
                continue;
            }
            return Ok(self.missing(base, "unknown generic type"));
        }
        Err(self.unknown(base, "alias chain too long for"))
    }

    /// A built-in class with type arguments.
    fn apply(&mut self, b: Builtin, name: &str, args: &[TypeExpr]) -> Result<TypeIdx, Error> {
        let display = TypeExpr::Generic(name.to_string(), args.to_vec());
        let node = match b {
            Builtin::Vec => {
                // BoundedVec<T, S>: S is the bound (py-scale-codec splits it off).
                let Some(first) = args.first() else {
                    return Err(arg_count_error(name, "1", 0));
                };
                if args.len() > 1 && !name.to_lowercase().contains("bounded") {
                    return Err(arg_count_error(name, "1", args.len()));
                }
                let inner = self.expr(first)?;
                if self.is_u8(inner) {
                    Node::Bytes
                } else {
                    Node::Seq(inner)
                }
            }
            Builtin::Option => match args {
                [inner] => Node::Option(self.expr(inner)?),
                _ => return Err(arg_count_error(name, "1", args.len())),
            },
            Builtin::Compact(_) => match args {
                [inner] => Node::Compact(self.expr(inner)?),
                _ => return Err(arg_count_error(name, "1", args.len())),
            },
            Builtin::Map => match args {
                [k, v] => Node::Map(self.expr(k)?, self.expr(v)?),
                _ => return Err(arg_count_error(name, "2", args.len())),
            },
            Builtin::Result => match args {
                [ok, err] => Node::Result(self.expr(ok)?, self.expr(err)?),
                _ => return Err(arg_count_error(name, "2", args.len())),
            },
            // Classes that ignore a sub_type.
            other => return self.builtin(other, &name.to_lowercase()),
        };
        Ok(self
            .registry
            .graph
            .add(node, Some(Name::from(display.to_string()))))
    }

    /// Compiles a preset definition, cached under `key`.
    fn definition(&mut self, def: &Arc<NamedDefinition>, key: &str) -> Result<TypeIdx, Error> {
        if let Some(idx) = self.cached(key) {
            return Ok(idx);
        }
        if let Some(pos) = self.stack.iter().position(|f| f.key == key) {
            // Re-entering a definition that reserved no node: fine if a node was
            // reserved since (the recursion ends there), else an alias cycle.
            if !self.stack[pos..].iter().any(|f| f.reserved) {
                return self.alias_cycle(pos);
            }
        }
        if self.stack.len() >= MAX_DEFINITION_DEPTH {
            return Err(Error::unknown_type(def.name.clone(), format!(
                "type definitions nest deeper than {MAX_DEFINITION_DEPTH} levels at '{}' (resolving {:?})",
                def.name, self.input
            )));
        }
        let reserved = !matches!(def.def, Definition::Alias(_));
        self.stack.push(Frame {
            key: key.to_string(),
            name: def.name.clone(),
            def: def.clone(),
            reserved,
        });
        let result = if reserved {
            self.compound(def, key)
        } else {
            let Definition::Alias(target) = &def.def else {
                unreachable!()
            };
            self.alias(target)
        };
        self.stack.pop();
        let idx = result?;
        self.remember(key, idx);
        Ok(idx)
    }

    /// An alias cycle `stack[pos..]` → back to `stack[pos]` (a self-alias
    /// like `"H256": "H256"` is the shortest). py-scale-codec resolves each
    /// alias when it is defined, so the member defined first saw its
    /// target's earlier meaning, and every member ends up with that: resolve
    /// it the same way (the earlier definition, or the built-in class).
    fn alias_cycle(&mut self, pos: usize) -> Result<TypeIdx, Error> {
        let cycle: Vec<Frame> = self.stack[pos..].to_vec();
        let first = (0..cycle.len())
            .min_by_key(|&i| cycle[i].def.seq)
            .expect("a cycle has members");
        let target = &cycle[(first + 1) % cycle.len()];
        let seq = cycle[first].def.seq;
        match target.def.as_of(seq) {
            Some(older) => {
                // Resolve the earlier definition without caching it under the
                // name (the name's current meaning is the cycle's result).
                let key = format!("\u{0}{}#{}", target.key, older.seq);
                self.stack.push(Frame {
                    key: key.clone(),
                    name: older.name.clone(),
                    def: older.clone(),
                    reserved: false,
                });
                let result = match &older.def {
                    Definition::Alias(t) => self.alias(t),
                    _ => self.compound(&older, &key),
                };
                self.stack.pop();
                result
            }
            None => {
                let key = target.key.clone();
                if let Some(b) = builtin(&key) {
                    return self.builtin(b, &key);
                }
                if let Some(alias) = fallback_alias(&key) {
                    return self.expr(&TypeExpr::path(alias));
                }
                let mut chain: Vec<&str> = cycle.iter().map(|f| f.name.as_str()).collect();
                chain.push(&cycle[0].name);
                Err(Error::unknown_type(
                    self.input.clone(),
                    format!(
                        "alias cycle in type definitions: {} (resolving {:?})",
                        chain.join(" → "),
                        self.input
                    ),
                ))
            }
        }
    }

    fn alias(&mut self, target: &str) -> Result<TypeIdx, Error> {
        if target.trim().is_empty() {
            // py-scale-codec finds no class for "" and fails when decoding it.
            return Ok(self.registry.graph.add(
                Node::Unresolved(Name::from(
                    "empty type string (py-scale-codec cannot decode it either)",
                )),
                None,
            ));
        }
        let raw_key = crate::typestr::rewrite_text(target).0.to_lowercase();
        if let Some(def) = self.registry.defs.get(raw_key.trim()).cloned() {
            return self.definition(&def, raw_key.trim());
        }
        match parse(target) {
            Ok(expr) => self.expr(&expr),
            Err(e) => {
                let at = self
                    .stack
                    .last()
                    .map(|f| f.name.clone())
                    .unwrap_or_default();
                Ok(self.missing(target, &format!("definition of '{at}': {e}")))
            }
        }
    }

    /// A struct, tuple, enum or set definition: reserve, compile, patch.
    fn compound(&mut self, def: &NamedDefinition, key: &str) -> Result<TypeIdx, Error> {
        let name = Name::from(def.name.as_str());
        let idx = self.registry.graph.reserve(name.clone());
        self.remember(key, idx);
        let result = self.compound_node(def, &name);
        match result {
            Ok(node) => {
                self.registry.graph.set(idx, node);
                Ok(idx)
            }
            Err(e) => {
                // Leave no placeholder reachable by name.
                self.registry.cache.remove(key);
                Err(e)
            }
        }
    }

    fn compound_node(&mut self, def: &NamedDefinition, name: &Name) -> Result<Node, Error> {
        let base = def.def.base_class().map(str::to_lowercase);
        let base = base.as_deref();
        if let Some(b) = base {
            if builtin(b).is_none()
                && self.registry.defs.get(b).is_none()
                && fallback_alias(b).is_none()
            {
                return Err(Error::unknown_type(
                    def.def.base_class().unwrap_or_default().to_string(),
                    format!(
                        "base_class '{}' of type '{}' not found",
                        def.def.base_class().unwrap_or_default(),
                        def.name
                    ),
                ));
            }
        }
        match &def.def {
            Definition::Struct { fields, .. } => {
                let node = self.struct_node(fields)?;
                match base {
                    Some("genericeventrecord") => Ok(Node::Special(Special::EventRecord(
                        self.registry.graph.add(node, Some(name.clone())),
                    ))),
                    Some("wrapperkeepopaque") if fields.len() == 2 => {
                        let Node::Struct(f) = &node else {
                            unreachable!()
                        };
                        Ok(Node::Special(Special::WrapperKeepOpaque(f[1].ty)))
                    }
                    Some("genericscaleinfoevent" | "genericevent") => {
                        Ok(Node::Special(Special::Event))
                    }
                    _ => Ok(node),
                }
            }
            Definition::Tuple { items, .. } => {
                if base == Some("genericmetadataversioned") {
                    return Ok(Node::Special(Special::MetadataVersioned));
                }
                let items = items
                    .iter()
                    .map(|t| self.type_ref(t))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Node::Tuple(items))
            }
            Definition::Enum { variants, .. } => {
                let node = self.enum_node(variants)?;
                match base {
                    Some("genericmultiaddress") => Ok(Node::Special(Special::MultiAddress(
                        self.registry.graph.add(node, Some(name.clone())),
                    ))),
                    Some("genericevent" | "genericscaleinfoevent") => {
                        Ok(Node::Special(Special::Event))
                    }
                    Some("data") => Ok(Node::Special(Special::IdentityData)),
                    _ => Ok(node),
                }
            }
            Definition::Set {
                flags, value_type, ..
            } => {
                let vt = self.expr(&parse(value_type)?)?;
                let byte_len = match self.registry.graph.get(vt) {
                    Some(Node::Prim(p)) => bit_store(*p),
                    _ => None,
                }
                .ok_or_else(|| {
                    Error::unknown_type(
                        def.name.clone(),
                        format!(
                            "set '{}': value_type '{value_type}' is not an unsigned integer",
                            def.name
                        ),
                    )
                })?;
                let flags = flags
                    .iter()
                    .map(|(flag, mask)| {
                        let mask = u64::try_from(*mask).map_err(|_| {
                            Error::unknown_type(
                                def.name.clone(),
                                format!(
                                    "set '{}': mask {mask} of '{flag}' exceeds 64 bits",
                                    def.name
                                ),
                            )
                        })?;
                        Ok((Name::from(flag.as_str()), mask))
                    })
                    .collect::<Result<Vec<_>, Error>>()?;
                Ok(Node::Set { byte_len, flags })
            }
            Definition::Alias(_) => unreachable!("aliases reserve no node"),
        }
    }

    fn struct_node(&mut self, fields: &[(String, TypeRef)]) -> Result<Node, Error> {
        let fields = fields
            .iter()
            .map(|(name, ty)| {
                Ok(Field {
                    name: Name::from(name.as_str()),
                    ty: self.type_ref(ty)?,
                })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        Ok(Node::Struct(fields))
    }

    fn enum_node(&mut self, variants: &EnumVariants) -> Result<Node, Error> {
        let variants = match variants {
            EnumVariants::Values(values) => values
                .iter()
                .map(|(name, index)| Variant {
                    index: *index,
                    name: Name::from(name.as_str()),
                    fields: Fields::Unit,
                })
                .collect(),
            EnumVariants::Mapped(mapping) => mapping
                .iter()
                .enumerate()
                .map(|(index, (name, ty))| {
                    let fields = match ty {
                        TypeRef::Null => Fields::Unit,
                        TypeRef::Named(s) if s == "Null" => Fields::Unit,
                        other => Fields::Unnamed(vec![self.type_ref(other)?]),
                    };
                    Ok(Variant {
                        index: index as u8,
                        name: Name::from(name.as_str()),
                        fields,
                    })
                })
                .collect::<Result<Vec<_>, Error>>()?,
        };
        Ok(Node::Enum(variants))
    }

    fn type_ref(&mut self, ty: &TypeRef) -> Result<TypeIdx, Error> {
        match ty {
            TypeRef::Named(s) => self.alias(s),
            TypeRef::Null => self.builtin(Builtin::Null, "null"),
            TypeRef::Inline(fields) => {
                let node = self.struct_node(fields)?;
                Ok(self.registry.graph.add(node, None))
            }
            TypeRef::Invalid(json) => {
                let at = self
                    .stack
                    .last()
                    .map(|f| f.name.clone())
                    .unwrap_or_default();
                Err(Error::unknown_type(at.clone(), format!(
                    "definition of '{at}' uses {json} as a type (py-scale-codec cannot decode it either)"
                )))
            }
        }
    }
}

fn values_enum(names: &[&str]) -> Node {
    Node::Enum(
        names
            .iter()
            .enumerate()
            .map(|(i, n)| Variant {
                index: i as u8,
                name: Name::from(*n),
                fields: Fields::Unit,
            })
            .collect(),
    )
}

/// The nodes `node` refers to.
fn children(node: &Node, out: &mut Vec<TypeIdx>) {
    match node {
        Node::Compact(t) | Node::Seq(t) | Node::Array(t, _) | Node::Option(t) => out.push(*t),
        Node::Tuple(items) => out.extend(items),
        Node::Struct(fields) => out.extend(fields.iter().map(|f| f.ty)),
        Node::Enum(variants) => {
            for v in variants {
                match &v.fields {
                    Fields::Unit => {}
                    Fields::Unnamed(t) => out.extend(t),
                    Fields::Named(f) => out.extend(f.iter().map(|f| f.ty)),
                }
            }
        }
        Node::Result(a, b) | Node::Map(a, b) => out.extend([*a, *b]),
        Node::Special(
            Special::MultiAddress(t)
            | Special::EventRecord(t)
            | Special::ScaleInfoEvent(t)
            | Special::WrapperKeepOpaque(t),
        ) => out.push(*t),
        Node::Special(Special::PreRuntime { fields, babe, aura }) => {
            out.extend([*fields, *babe, *aura])
        }
        _ => {}
    }
}
