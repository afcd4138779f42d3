import MemhuntFormats

extension LeaksReport {
    /// Whether every tree of the report was read for cycles: none and no line of one past the reader's bounds
    /// (`LeakForest`). What is said of its cycles and classes is of the trees read; only a report read whole
    /// can show that something is absent.
    var treesReadWhole: Bool { forest.treesLeftOut == 0 && forest.linesLeftOut == 0 }
}
