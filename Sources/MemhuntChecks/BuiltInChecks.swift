import MemhuntCore

/// The built-in checks, sorted by id. A test guards the order and completeness.
public let builtInChecks: [any Check.Type] = []
