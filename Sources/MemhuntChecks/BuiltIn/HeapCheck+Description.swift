import MemhuntCore
import MemhuntFormats

/// What the check declares: its facts, its codes with their examples, and its description.
extension HeapCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let heaps = FactDescription(
            "heap.heaps", .count, "heap reports of the subject among the artifacts.", better: .neutral,
            verifies: .captures)
        static let nodes = FactDescription(
            "heap.nodes", .count, "Nodes of the newest heap report (its 'All zones: N nodes (M bytes)').")
        static let allocatedMB = FactDescription(
            "heap.allocatedMB", .megabytes, "Bytes of the newest heap report's nodes ('All zones'), in MB.",
            measure: true)
        static let classes = FactDescription(
            "heap.classes", .count, "Classes of the newest heap report's table (name, type and binary).",
            better: .neutral)
        static let largestClass = FactDescription(
            "heap.largestClass", .text, "The class with the most bytes in the newest heap report ('non-object' aside).")
        static let largestClassMB = FactDescription(
            "heap.largestClassMB", .megabytes, "The bytes of that class, in MB.")
        static let footprintMB = FactDescription(
            "heap.footprintMB", .megabytes, "The newest heap report header's physical footprint, in MB.")
        static let diff = FactDescription(
            "heap.diff", .list,
            "The first heap against the last, per class: {class, before, after, deltaCount, deltaBytes}, the largest "
                + "change of bytes first (at most 20).", verifies: .classGrowth)
        static let families = FactDescription(
            "heap.families", .list,
            "Classes of the newest heap in step (counts within a thousandth, three at least, each at least the "
                + "threshold): {classes, fewest, most, bytes}, most bytes first (at most 3).")
        static let grownClasses = FactDescription(
            "heap.grownClasses", .count,
            "Classes whose instance count rose by at least the threshold from the first heap to the last without "
                + "falling between two heaps.")
        static let topGrowthClass = FactDescription(
            "heap.topGrowthClass", .text, "The class whose instance count rose most from the first heap to the last.")
        static let topGrowthInstances = FactDescription(
            "heap.topGrowthInstances", .count, "Instances of that class added from the first heap to the last.",
            measure: true)
        static let perVisitInstances = FactDescription(
            "heap.perVisitInstances", .count,
            "Instances of that class added per visit, when the heaps are a known number of visits apart.",
            measure: true)
        static let shape = FactDescription(
            "heap.shape", .text,
            "With three heaps or more, the shape of that class's counts: linear (about the same per heap), step "
                + "(one rise, then flat) or uneven.")
        static let kept = FactDescription(
            "heap.kept", .text,
            "Whether that class's instances are leaked, reachable (abandoned) or partly leaked, from a leaks report "
                + "of the same process.")
        static let growthMB = FactDescription(
            "heap.growthMB", .megabytes, "The change of the heap's bytes ('All zones') from the first heap to the last."
        )
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let grew = FindingCode(
            "heap.grew", .warning,
            "Heaps of one process in time order: a class gains instances from each heap to the next and keeps them.",
            examples: [
                .raises(
                    "Fixtures/heap/faq-visit-1.heap.txt", "Fixtures/heap/faq-visit-2.heap.txt",
                    "Fixtures/heap/faq-visit-3.sortBySize.heap.txt", "Fixtures/heap/faq-visit-4.heap.txt",
                    facts: [Fact.heaps.key: 4, Fact.nodes.key: 101163],
                    title: "FAQ (Swift, AluminumWeight) gained 900 instances over 4 heaps and kept them"),
                .quiet(
                    "Fixtures/heap/faq-fixed-visit-1.heap.txt", "Fixtures/heap/faq-fixed-visit-4.heap.txt",
                    facts: [Fact.heaps.key: 2, Fact.nodes.key: 98464]),
            ])
        static let lockstep = FindingCode(
            "heap.lockstep", .notice,
            "Classes of one heap in step, in numbers far above a screen's need: objects made together per call and "
                + "never released (memory abandoned or leaked).",
            examples: [
                .raises(
                    "Fixtures/heap-shapes/lockstep.heap.txt", facts: [Fact.heaps.key: 1],
                    title:
                        "4 classes in step at 52,004–52,040 instances each: Connection (Swift, Relay), ConnectionState (Swift, Relay), RetryTimer (Swift, Relay), …"
                ),
                .quiet("Fixtures/heap/faq-visit-4.heap.txt", facts: [Fact.heaps.key: 1]),
            ])
        static let flat = FindingCode(
            "heap.flat", .info, "Heaps of one process in time order: no class gains the threshold's instances.",
            examples: [
                .raises(
                    "Fixtures/heap/faq-fixed-visit-1.heap.txt", "Fixtures/heap/faq-fixed-visit-4.heap.txt",
                    facts: [Fact.heaps.key: 2, Fact.nodes.key: 98464],
                    title: "No class gained 100 instances over 2 heaps"),
                .quiet(
                    "Fixtures/heap/faq-visit-1.heap.txt", "Fixtures/heap/faq-visit-4.heap.txt",
                    facts: [Fact.heaps.key: 2, Fact.nodes.key: 101163]),
            ])
    }

    static let description = CheckDescription(
        id: "heap",
        title: "Objects per class in heap reports",
        step: "navigation-growth",
        rationale: """
            `heap` counts a memgraph's objects per class. A screen that loads its data again on every \
            appearance and keeps it leaves the same objects behind each time: taken after each visit, the \
            heaps show a class whose count climbs by the same amount per visit, which names what is kept even \
            when nothing leaks (reachable memory is no leak).
            """,
        reads: [.heap],
        facts: [
            Fact.heaps, Fact.nodes, Fact.allocatedMB, Fact.classes, Fact.largestClass, Fact.largestClassMB,
            Fact.footprintMB, Fact.grownClasses, Fact.diff, Fact.families, Fact.topGrowthClass, Fact.topGrowthInstances,
            Fact.perVisitInstances, Fact.shape, Fact.kept,
            Fact.growthMB,
        ],
        codes: [Code.grew, Code.lockstep, Code.flat],
        parameters: [
            CheckParameter(
                "min_instances", default: 100, "A class counts as grown when it gains at least this many instances."),
            CheckParameter(
                "family_min", default: 10000,
                "Classes in step count as a family when each has at least this many instances (0: never)."),
            CheckParameter(
                "visits_per_heap", default: 0,
                "Visits of the screen between one heap and the next; 0 when the heaps are not of counted visits."),
        ]
    )
}
