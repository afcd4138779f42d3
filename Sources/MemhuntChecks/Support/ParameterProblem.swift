/// A parameter a check cannot use as given: thrown from `measure`, it makes the check's failure (the hunt could
/// not be done as asked) with the reason, rather than a check that quietly ignores what it was told.
struct ParameterProblem: Error, CustomStringConvertible {
    var text: String
    var description: String { text }
}
