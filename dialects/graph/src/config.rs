//! Kernel configurations: what the lowering of a kernel op follows (register tile,
//! template, prefetching, task shape), as typed values ([`ConvConfig`],
//! [`MatmulConfig`], [`PoolConfig`]) converted to and from the op's `config`
//! attribute, which prints, parses and may be written by hand in tests:
//!
//! ```mlir
//! %y = graph.conv2d_nchwc %x, %w {config = {template = "direct", tile_w = 6, tile_oc = 2}} : ...
//! ```
//!
//! Each configuration is declared once, as a field list ([`kernel_config!`]): a field's
//! name is its attribute key, its type says what values it takes (a count up to a
//! bound, a flag, one of an enum's names), and its default is what the lowering uses
//! when the field is absent. Reading, writing and verifying all come from that list.
//! The convolution's class ([`classify_conv`]) is decided here too, once, for the
//! blocking pass, the configuration pass and the templates alike.

use std::fmt;

use tcc_ir::{AttrDefault, AttrDict, AttrKind, AttrSpec, Attribute, Module, Op};

use crate::{GraphOp, Pool, kind_of};

/// The attribute holding a kernel op's configuration.
pub const CONFIG_ATTR: &str = "config";

/// The kernel ops' declaration of that attribute.
pub const CONFIG_SPEC: AttrSpec = AttrSpec::optional(
    CONFIG_ATTR,
    AttrKind::Any,
    AttrDefault::Optional,
    "kernel configuration (typed by the graph dialect's `config` module)",
);

/// Where a kernel op's configuration came from, when not the analytic default:
/// `"database"` (the tuning database, `tcc tune`) or `"bound"` (the candidate with the
/// lowest I/O bound). No effect on what is computed.
pub const CONFIG_SOURCE_ATTR: &str = "config_source";
/// The [`CONFIG_SOURCE_ATTR`] of a configuration from the tuning database.
pub const FROM_DATABASE: &str = "database";
/// The [`CONFIG_SOURCE_ATTR`] of the candidate with the lowest I/O bound.
pub const FROM_BOUND: &str = "bound";

pub const CONFIG_SOURCE_SPEC: AttrSpec = AttrSpec::optional(
    CONFIG_SOURCE_ATTR,
    AttrKind::String,
    AttrDefault::Optional,
    "where `config` came from when not the analytic default: \"database\" (the tuning database) or \"bound\" (the I/O bound's optimum)",
);

/// A value a configuration field holds, read from and written to an attribute.
pub trait FieldValue: Copy {
    fn to_attribute(self) -> Attribute;
    /// Reads `a`; `max` bounds counts. The error says what was expected.
    fn from_attribute(a: &Attribute, max: i64) -> Result<Self, String>;
}

impl FieldValue for i64 {
    fn to_attribute(self) -> Attribute {
        Attribute::i64(self)
    }
    fn from_attribute(a: &Attribute, max: i64) -> Result<i64, String> {
        a.as_i64().filter(|v| (1..=max).contains(v)).ok_or_else(|| format!("an integer from 1 to {max}"))
    }
}

impl FieldValue for bool {
    fn to_attribute(self) -> Attribute {
        Attribute::Bool(self)
    }
    fn from_attribute(a: &Attribute, _: i64) -> Result<bool, String> {
        a.as_bool().ok_or_else(|| "a bool".to_string())
    }
}

/// An enum whose values are written as their names.
macro_rules! named_enum {
    ($(#[$meta:meta])* pub enum $Name:ident { $($(#[$vmeta:meta])* $Variant:ident = $text:literal,)* }) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum $Name { $($(#[$vmeta])* $Variant,)* }

        impl $Name {
            pub const ALL: &'static [$Name] = &[$($Name::$Variant),*];
            pub const NAMES: &'static [&'static str] = &[$($text),*];

            pub fn name(self) -> &'static str {
                match self { $($Name::$Variant => $text,)* }
            }

            pub fn parse(s: &str) -> Option<$Name> {
                $Name::ALL.iter().copied().find(|v| v.name() == s)
            }
        }

        impl fmt::Display for $Name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FieldValue for $Name {
            fn to_attribute(self) -> Attribute {
                Attribute::string(self.name())
            }
            fn from_attribute(a: &Attribute, _: i64) -> Result<$Name, String> {
                a.as_str().and_then($Name::parse).ok_or_else(|| format!("one of {}", $Name::NAMES.join(", ")))
            }
        }
    };
}

/// A kernel configuration: a struct of optional fields (absent: the lowering's
/// default), each field's type, bound (for counts) and default said once.
macro_rules! kernel_config {
    (
        $(#[$meta:meta])*
        pub struct $Name:ident {
            $(
                $(#[$fmeta:meta])*
                $field:ident: $T:ty $(= $default:expr)? $(, up to $max:expr)?;
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct $Name {
            $($(#[$fmeta])* pub $field: Option<$T>,)*
        }

        impl $Name {
            /// The attribute keys, in declaration order.
            pub const KEYS: &'static [&'static str] = &[$(stringify!($field)),*];

            $(kernel_config!(@getter $field, $T $(, $default)?);)*

            /// The configuration an attribute dictionary spells, or what is wrong with it
            /// (an unknown key, a value of the wrong kind or out of range).
            pub fn from_dict(dict: &AttrDict) -> Result<$Name, String> {
                let mut config = $Name::default();
                for (key, value) in dict.iter() {
                    match key {
                        $(stringify!($field) => {
                            let max = kernel_config!(@max $($max)?);
                            config.$field = Some(<$T as FieldValue>::from_attribute(value, max).map_err(|want| {
                                format!("kernel configuration '{key}' must be {want}, got {value}")
                            })?);
                        })*
                        _ => {
                            return Err(format!(
                                "unknown kernel configuration key '{key}' (known: {})",
                                $Name::KEYS.join(", ")
                            ));
                        }
                    }
                }
                Ok(config)
            }

            /// The attribute dictionary of the fields that are set.
            pub fn to_dict(&self) -> AttrDict {
                let mut dict = AttrDict::new();
                $(if let Some(v) = self.$field {
                    dict.set(stringify!($field), FieldValue::to_attribute(v));
                })*
                dict
            }

            /// The configuration `op` carries (defaults where it carries none; the verifier
            /// rejected malformed ones).
            pub fn of(m: &Module, op: Op) -> $Name {
                m.attr(op, CONFIG_ATTR).and_then(|a| a.as_dict()).and_then(|d| $Name::from_dict(d).ok()).unwrap_or_default()
            }

            /// Writes this configuration on `op`.
            pub fn set_on(&self, m: &mut Module, op: Op) {
                m.set_attr(op, CONFIG_ATTR, Attribute::Dict(self.to_dict()));
            }
        }
    };
    (@getter $field:ident, $T:ty) => {};
    (@getter $field:ident, $T:ty, $default:expr) => {
        /// The field, or its default.
        pub fn $field(&self) -> $T {
            self.$field.unwrap_or($default)
        }
    };
    (@max) => { 1 };
    (@max $max:expr) => { $max };
}

named_enum! {
    /// How a convolution is lowered.
    pub enum ConvTemplate {
        /// Any kernel size, stride, dilation; groups whose channels fill whole blocks.
        Direct = "direct",
        /// 1x1, stride 1, no padding: the direct template over the flattened rows.
        Pointwise = "pointwise",
        /// One input channel per output channel.
        Depthwise = "depthwise",
        /// Blocks of one channel (NCHW): vectors along output rows, for groups whose
        /// channels fill no vector block and depthwise with a channel multiplier.
        Rows = "rows",
        /// The scalar reference nest.
        Reference = "reference",
    }
}

named_enum! {
    /// Where the direct template puts a row's edge columns (whose kernel taps fall
    /// partly outside the input).
    pub enum Edges {
        /// In the first and last whole tiles, with the kernel columns unrolled there.
        Merged = "merged",
        /// In tiles of their own (uniform taps everywhere).
        Split = "split",
    }
}

kernel_config! {
    /// The configuration of `graph.conv2d_nchwc`.
    pub struct ConvConfig {
        /// The template; absent: by the convolution's class.
        template: ConvTemplate;
        /// Output pixels per register tile.
        tile_w: i64 = 4, up to 256;
        /// Output-channel blocks per register tile.
        tile_oc: i64 = 1, up to 256;
        /// Kernel columns unrolled.
        unroll_kw: bool = false;
        /// Input channels per step.
        unroll_ic: i64 = 1, up to 256;
        /// Where edge columns go.
        edges: Edges = Edges::Merged;
        /// Input-channel blocks per pass (absent: one pass). With passes a task covers
        /// every row of its output-channel group, pass by pass, the partial sums kept in
        /// the output.
        chunk_ic: i64, up to 256;
        /// Pad the input explicitly before the kernel (`materialize-padding` moves the
        /// convolution's padding into a `graph.pad`), so that every column of a row
        /// reads every kernel tap: a microkernel call then covers the whole kernel
        /// window and reads the filters as one contiguous stream.
        pad_input: bool = false;
        /// Prefetch the next channel group's filters into L2 while this group's run.
        prefetch: bool = false;
        /// The direct template prefetches the input rows of the next output row (for an
        /// input that comes cold from the caller).
        prefetch_input: bool = false;
        /// Output columns per task (of the flattened rows for pointwise), the tasks over
        /// the same columns running one after another for every channel group, so the
        /// input they read stays in cache; absent: a channel group's tasks run one after
        /// another.
        task_w: i64, up to 1 << 30;
    }
}

kernel_config! {
    /// The configuration of `graph.matmul_packed` and `graph.batch_matmul`.
    pub struct MatmulConfig {
        /// Rows per register tile.
        tile_m: i64 = 4, up to 256;
        /// Vectors of columns per register tile (a packed operand's column block is this
        /// many vectors).
        tile_n: i64 = 1, up to 256;
        /// Reduction steps per loop iteration.
        unroll_k: i64 = 1, up to 256;
        /// Prefetch the next column block's weights into L2 (packed operands only).
        prefetch: bool = false;
    }
}

kernel_config! {
    /// The configuration of the blocked pooling ops.
    pub struct PoolConfig {
        /// Output pixels per register tile.
        tile_w: i64 = 4, up to 256;
    }
}

/// Any kernel op's configuration.
#[derive(Clone, Debug, PartialEq)]
pub enum KernelConfig {
    Conv(ConvConfig),
    Matmul(MatmulConfig),
    Pool(PoolConfig),
}

impl KernelConfig {
    /// Checks the `config` attribute of kernel op `op` (any other op: no
    /// configuration).
    pub fn verify(m: &Module, op: Op) -> Result<(), String> {
        let Some(config) = m.attr(op, CONFIG_ATTR) else { return Ok(()) };
        let dict = config.as_dict().ok_or("attribute 'config' must be a dictionary")?;
        match kind_of(m, op) {
            Some(GraphOp::Conv2dNchwc) => ConvConfig::from_dict(dict).map(|_| ()),
            Some(GraphOp::MatmulPacked) => MatmulConfig::from_dict(dict).map(|_| ()),
            Some(GraphOp::BatchMatmul) => {
                let c = MatmulConfig::from_dict(dict)?;
                match c.prefetch {
                    Some(_) => Err("kernel configuration 'prefetch' applies to packed matmuls only".into()),
                    None => Ok(()),
                }
            }
            Some(GraphOp::Pool2dNchwc(_)) => PoolConfig::from_dict(dict).map(|_| ()),
            _ => Err(format!("'{}' takes no kernel configuration", m.name(op))),
        }
    }

    /// The attribute dictionary of the fields that are set.
    pub fn to_dict(&self) -> AttrDict {
        match self {
            KernelConfig::Conv(c) => c.to_dict(),
            KernelConfig::Matmul(c) => c.to_dict(),
            KernelConfig::Pool(c) => c.to_dict(),
        }
    }

    /// Writes this configuration on `op`.
    pub fn set_on(&self, m: &mut Module, op: Op) {
        match self {
            KernelConfig::Conv(c) => c.set_on(m, op),
            KernelConfig::Matmul(c) => c.set_on(m, op),
            KernelConfig::Pool(c) => c.set_on(m, op),
        }
    }
}

/// The shape of a convolution as its class is decided: channel counts (of the padded
/// channels, for a blocked convolution), groups, kernel window and its attributes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvGeometry {
    pub in_channels: i64,
    pub out_channels: i64,
    /// Input channels each output channel reads.
    pub per_group: i64,
    pub groups: i64,
    pub kernel: [i64; 2],
    pub strides: [i64; 2],
    pub dilations: [i64; 2],
    pub pads: [i64; 4],
}

/// What kind of convolution it is: what the templates, the blocking and the default
/// configuration distinguish.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ConvClass {
    /// One input channel per output channel, as many groups as channels.
    Depthwise,
    /// One input channel per group, as many groups as input channels, and several
    /// output channels per group: a depthwise convolution with a channel multiplier
    /// ([`ConvGeometry::multiplier`] outputs per input channel).
    Multiplier,
    /// A 1x1 kernel at stride 1, without padding or dilation.
    Pointwise,
    /// Everything else.
    Direct,
}

impl ConvGeometry {
    /// The geometry of `graph.conv2d` (NCHW input, OIHW filter) or of
    /// `graph.conv2d_nchwc` (blocked input and packed filter); `None` for other ops.
    pub fn of(m: &Module, op: Op) -> Option<ConvGeometry> {
        let shape = |i: usize| m.value_type(m.operand(op, i)).as_tensor().map(|t| t.shape().to_vec());
        let (x, w) = (shape(0)?, shape(1)?);
        let (in_channels, out_channels, per_group, kernel) = match kind_of(m, op)? {
            GraphOp::Conv2d if x.len() == 4 && w.len() == 4 => (x[1], w[0], w[1], [w[2], w[3]]),
            GraphOp::Conv2dNchwc if x.len() == 5 && (w.len() == 6 || w.len() == 7) => {
                let (i, o) = crate::ops::kernel::filter_blocks(&w);
                (x[1] * x[4], w[0] * o, w[1] * i, [w[2], w[3]])
            }
            _ => return None,
        };
        let ints = |name: &str| m.attr_or_default(op, name).and_then(|a| a.as_i64_list());
        let pair = |v: Vec<i64>| <[i64; 2]>::try_from(v).ok();
        Some(ConvGeometry {
            in_channels,
            out_channels,
            per_group,
            groups: m.attr_or_default(op, "groups").and_then(|a| a.as_i64())?,
            kernel,
            strides: pair(ints("strides")?)?,
            dilations: pair(ints("dilations")?)?,
            pads: <[i64; 4]>::try_from(ints("pads")?).ok()?,
        })
    }

    /// Output channels per input channel of a depthwise convolution (1) or one with a
    /// channel multiplier.
    pub fn multiplier(&self) -> i64 {
        self.out_channels / self.in_channels.max(1)
    }

    pub fn class(&self) -> ConvClass {
        let one_channel_groups = self.groups > 1 && self.groups == self.in_channels && self.per_group == 1;
        if one_channel_groups && self.out_channels == self.in_channels {
            ConvClass::Depthwise
        } else if one_channel_groups && self.out_channels % self.in_channels == 0 {
            ConvClass::Multiplier
        } else if self.kernel == [1, 1] && self.strides == [1, 1] && self.dilations == [1, 1] && self.pads == [0; 4] {
            ConvClass::Pointwise
        } else {
            ConvClass::Direct
        }
    }
}

/// The class of convolution `op` (`graph.conv2d` or `graph.conv2d_nchwc`).
pub fn classify_conv(m: &Module, op: Op) -> Option<ConvClass> {
    ConvGeometry::of(m, op).map(|g| g.class())
}

/// What a tuning database is asked for: the kernel op's name, operand and result
/// types and attributes (its configuration and where it came from aside), printed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KernelKey(pub String);

impl KernelKey {
    pub fn of(m: &Module, op: Op) -> KernelKey {
        let mut attrs = m.attrs(op).clone();
        attrs.remove(CONFIG_ATTR);
        attrs.remove(CONFIG_SOURCE_ATTR);
        let types =
            |vs: &[tcc_ir::Value]| vs.iter().map(|&v| m.value_type(v).to_string()).collect::<Vec<_>>().join(", ");
        KernelKey(format!("{} {attrs} ({}) -> ({})", m.name(op), types(m.operands(op)), types(m.results(op))))
    }
}

/// Where configurations come from before the analytic default: a tuning database
/// answers for the kernels it has measured.
pub trait ConfigSource: Send + Sync {
    /// The configuration recorded for a kernel, if any.
    fn lookup(&self, key: &KernelKey) -> Option<KernelConfig>;
}

/// Which kernel ops take which configuration.
pub fn takes_config(m: &Module, op: Op) -> bool {
    matches!(
        kind_of(m, op),
        Some(
            GraphOp::Conv2dNchwc
                | GraphOp::MatmulPacked
                | GraphOp::BatchMatmul
                | GraphOp::Pool2dNchwc(Pool::Max | Pool::Avg)
        )
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configurations_round_trip_through_their_attribute() {
        let c = ConvConfig {
            template: Some(ConvTemplate::Pointwise),
            tile_w: Some(6),
            tile_oc: Some(2),
            edges: Some(Edges::Split),
            prefetch: Some(true),
            task_w: Some(1 << 20),
            ..ConvConfig::default()
        };
        let dict = c.to_dict();
        assert_eq!(
            dict.to_string(),
            "{edges = \"split\", prefetch = true, task_w = 1048576, template = \"pointwise\", tile_oc = 2, tile_w = 6}"
        );
        assert_eq!(ConvConfig::from_dict(&dict).unwrap(), c);
        assert_eq!(c.tile_w(), 6);
        assert_eq!(c.unroll_ic(), 1);
        assert_eq!(ConvConfig::default().tile_w(), 4);
        assert_eq!(MatmulConfig::default().to_dict(), AttrDict::new());
    }

    /// The first op of `@main` in `text` (graph dialect), in its module.
    fn first_op(text: &str) -> (Module, Op) {
        let m = tcc_ir::parse_bytes("test.mlir", text.as_bytes(), &crate::registry()).unwrap();
        let func = m.func("main").unwrap();
        let entry = tcc_ir::builtin::func_entry(&m, func).unwrap();
        let op = m.block_ops(entry).next().unwrap();
        (m, op)
    }

    fn conv(x: &str, w: &str, y: &str, attrs: &str) -> Option<ConvClass> {
        let (m, op) = first_op(&format!(
            "func.func @main(%x: tensor<{x}xf32>, %w: tensor<{w}xf32>) -> tensor<{y}xf32> {{\n\
               %0 = graph.conv2d %x, %w {{{attrs}}} : (tensor<{x}xf32>, tensor<{w}xf32>) -> tensor<{y}xf32>\n\
               return %0 : tensor<{y}xf32>\n}}"
        ));
        classify_conv(&m, op)
    }

    #[test]
    fn one_classification_of_plain_and_blocked_convolutions() {
        assert_eq!(
            conv("1x8x6x6", "8x1x3x3", "1x8x6x6", "pads = [1, 1, 1, 1], groups = 8"),
            Some(ConvClass::Depthwise)
        );
        // A channel multiplier: 16 outputs from 8 channels in 8 groups.
        assert_eq!(
            conv("1x8x6x6", "16x1x3x3", "1x16x6x6", "pads = [1, 1, 1, 1], groups = 8"),
            Some(ConvClass::Multiplier)
        );
        // Groups of one input channel and 3 outputs, but two channels per group.
        assert_eq!(conv("1x8x6x6", "12x2x3x3", "1x12x6x6", "pads = [1, 1, 1, 1], groups = 4"), Some(ConvClass::Direct));
        assert_eq!(conv("1x8x6x6", "4x8x1x1", "1x4x6x6", ""), Some(ConvClass::Pointwise));
        assert_eq!(conv("1x8x6x6", "4x8x1x1", "1x4x3x3", "strides = [2, 2]"), Some(ConvClass::Direct));
        assert_eq!(conv("1x8x6x6", "4x4x3x3", "1x4x4x4", "groups = 2"), Some(ConvClass::Direct));
        // Blocked: channels are counted over the blocks (padded ones included).
        let (m, op) = first_op(
            "func.func @main(%x: tensor<1x2x6x6x4xf32>, %w: tensor<2x1x3x3x1x4xf32>) -> tensor<1x2x6x6x4xf32> {\n\
               %0 = graph.conv2d_nchwc %x, %w {pads = [1, 1, 1, 1], groups = 8} : (tensor<1x2x6x6x4xf32>, tensor<2x1x3x3x1x4xf32>) -> tensor<1x2x6x6x4xf32>\n\
               return %0 : tensor<1x2x6x6x4xf32>\n}",
        );
        assert_eq!(classify_conv(&m, op), Some(ConvClass::Depthwise));
        assert!(takes_config(&m, op));
        assert!(KernelKey::of(&m, op).0.starts_with("graph.conv2d_nchwc {groups = 8, pads = [1, 1, 1, 1]}"));
    }

    #[test]
    fn malformed_configurations_say_what_is_wrong() {
        let err = |d: AttrDict| ConvConfig::from_dict(&d).unwrap_err();
        assert!(
            err(AttrDict::new().with("tiles", Attribute::i64(4))).contains("unknown kernel configuration key 'tiles'")
        );
        assert!(err(AttrDict::new().with("tile_w", Attribute::i64(0))).contains("must be an integer from 1 to 256"));
        assert!(err(AttrDict::new().with("template", Attribute::string("winograd"))).contains("direct, pointwise"));
        assert!(err(AttrDict::new().with("prefetch", Attribute::i64(1))).contains("must be a bool"));
        assert!(PoolConfig::from_dict(&AttrDict::new().with("tile_oc", Attribute::i64(1))).is_err());
    }
}
