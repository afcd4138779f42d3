import Testing

@testable import MemhuntCore

/// The shapes of a series of readings, one per repetition of a scenario.
@Suite struct GrowthShapeTests {
    static func kind(_ values: [Double], least: Double = 1) -> GrowthShape.Kind? {
        GrowthShape.of(values, least: least, minR2: 0.9)?.kind
    }

    @Test func seed001sFAQVisitsAreALine() throws {
        let shape = try #require(GrowthShape.of([82.4, 96.1, 110.3, 123.8], least: 1, minR2: 0.9))
        #expect(shape.kind == .linear)
        #expect((shape.slope * 10).rounded() / 10 == 13.8)
        #expect(shape.r2 > 0.99)
        #expect((shape.rise * 10).rounded() / 10 == 41.4)
    }

    @Test func aCacheFilledOnceIsAStepNotALine() throws {
        let shape = try #require(GrowthShape.of([64.2, 79.8, 80.3, 79.9, 80.6], least: 1, minR2: 0.9))
        #expect(shape.kind == .step)
        #expect(shape.stepAfter == 1)
        #expect(Self.kind([0, 400, 400, 400], least: 33) == .step)
        // Two levels that a line fits better are a line: a slope with noise is not a step.
        #expect(Self.kind([4410, 4468, 4506, 4565], least: 33) == .linear)
        // The higher level must hold for two readings: one jump at the end is no step.
        #expect(Self.kind([10, 10, 10, 60]) != .step)
    }

    @Test func aRiseThatComesBackIsTransient() {
        #expect(Self.kind([71.0, 88.4, 97.2, 71.6]) == .transient)
        #expect(Self.kind([20, 520, 900, 25], least: 33) == .transient)
        // Ending at the top is not coming back.
        #expect(Self.kind([71, 88, 71.2, 97]) != .transient)
    }

    @Test func noiseIsFlatAndTheRestUneven() {
        #expect(Self.kind([82.4, 84.1, 83.0, 83.6]) == .flat)
        #expect(Self.kind([5, 5, 5]) == .flat)
        #expect(Self.kind([5, 5, 5], least: 0) == .flat)
        #expect(Self.kind([90, 118, 119, 120, 152]) == .uneven)
        // A line going down is no growth.
        #expect(Self.kind([100, 90, 80, 70]) == .uneven)
    }

    @Test func twoReadingsOrOddValuesHaveNoShape() {
        #expect(GrowthShape.of([1, 2], least: 1, minR2: 0.9) == nil)
        #expect(GrowthShape.of([1, .nan, 3], least: 1, minR2: 0.9) == nil)
        #expect(GrowthShape.of([1, .infinity, 3], least: 1, minR2: 0.9) == nil)
    }
}
