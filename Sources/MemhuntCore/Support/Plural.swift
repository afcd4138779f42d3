/// Counts with their noun in the right number: "1 crash report", "9 crash reports", "1 step".
public enum Plural {
    /// `"1 artifact"`, `"2 artifacts"`; the count grouped (`"15,734,833 compressions"`).
    public static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        FactValue.grouped(n) + " " + (n == 1 ? singular : plural ?? singular + "s")
    }
}
