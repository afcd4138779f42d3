import MemhuntYAML
import Testing

@Suite struct YAMLTests {
    @Test func scalarsRecordWhetherTheyArePlain() throws {
        let node = try YAMLParser.parse("a: 10\nb: \"10\"\nc: '10'\nd: |\n  text\n")
        #expect(
            node
                == .mapping(
                    [
                        ("a", Mark(line: 1, column: 1), .scalar("10", plain: true, Mark(line: 1, column: 4))),
                        ("b", Mark(line: 2, column: 1), .scalar("10", plain: false, Mark(line: 2, column: 4))),
                        ("c", Mark(line: 3, column: 1), .scalar("10", plain: false, Mark(line: 3, column: 4))),
                        ("d", Mark(line: 4, column: 1), .scalar("text\n", plain: false, Mark(line: 4, column: 4))),
                    ], Mark(line: 1, column: 1)))
    }

    @Test func nestedBlockAndFlowCollectionsWithOneBasedMarks() throws {
        let text = """
            steps:
              - id: one
                reads: [a, b]
              - { id: two }
            """
        let node = try YAMLParser.parse(text)
        let expected = YAMLNode.mapping(
            [
                (
                    "steps", Mark(line: 1, column: 1),
                    .sequence(
                        [
                            .mapping(
                                [
                                    (
                                        "id", Mark(line: 2, column: 5),
                                        .scalar("one", plain: true, Mark(line: 2, column: 9))
                                    ),
                                    (
                                        "reads", Mark(line: 3, column: 5),
                                        .sequence(
                                            [
                                                .scalar("a", plain: true, Mark(line: 3, column: 13)),
                                                .scalar("b", plain: true, Mark(line: 3, column: 16)),
                                            ], Mark(line: 3, column: 12))
                                    ),
                                ], Mark(line: 2, column: 5)),
                            .mapping(
                                [
                                    (
                                        "id", Mark(line: 4, column: 7),
                                        .scalar("two", plain: true, Mark(line: 4, column: 11))
                                    )
                                ],
                                Mark(line: 4, column: 5)),
                        ], Mark(line: 2, column: 3))
                )
            ], Mark(line: 1, column: 1))
        #expect(node == expected)
    }

    @Test func duplicateKeysAreKeptInOrder() throws {
        guard case .mapping(let pairs, _) = try YAMLParser.parse("a: 1\na: 2\n") else {
            Issue.record("expected a mapping")
            return
        }
        #expect(pairs.map(\.key) == ["a", "a"])
        #expect(pairs.map(\.keyMark.line) == [1, 2])
    }

    @Test func aliasesCopyTheAnchoredNode() throws {
        let node = try YAMLParser.parse("base: &b [x, y]\ncopy: *b\n")
        guard case .mapping(let pairs, _) = node else {
            Issue.record("expected a mapping")
            return
        }
        #expect(pairs[1].value == pairs[0].value)
        #expect(pairs[1].value.mark == Mark(line: 1, column: 7))  // the anchored node starts at its anchor
    }

    @Test func unknownAliasIsAnError() {
        #expect(throws: YAMLError(message: "unknown anchor 'nope'", mark: Mark(line: 1, column: 4))) {
            try YAMLParser.parse("a: *nope\n")
        }
    }

    @Test func aliasBombStopsAtTheNodeBudget() {
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for i in 1...8 {
            lines.append("a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]")
        }
        #expect(throws: YAMLError.self) { try YAMLParser.parse(lines.joined(separator: "\n")) }
        do {
            _ = try YAMLParser.parse(lines.joined(separator: "\n"))
        } catch {
            #expect(error.message == "document expands to more than \(YAMLParser.nodeBudget) nodes")
        }
    }

    @Test func syntaxErrorCarriesLibyamlProblemAndOneBasedMark() {
        #expect(
            throws: YAMLError(
                message: "mapping values are not allowed in this context", mark: Mark(line: 2, column: 9))
        ) {
            try YAMLParser.parse("id: ok\ntitle: a: b\n")
        }
    }

    @Test func unterminatedFlowSequence() {
        #expect(throws: YAMLError.self) { try YAMLParser.parse("reads: [a, b\n") }
    }

    @Test func emptyInputIsAnEmptyMapping() throws {
        #expect(try YAMLParser.parse("") == .mapping([], Mark(line: 1, column: 1)))
        #expect(try YAMLParser.parse("# only a comment\n") == .mapping([], Mark(line: 2, column: 1)))
    }

    @Test func multipleDocumentsAreRejected() {
        #expect(
            throws: YAMLError(message: "expected a single YAML document", mark: Mark(line: 2, column: 1))
        ) {
            try YAMLParser.parse("a: 1\n---\nb: 2\n")
        }
    }

    @Test func nonScalarKeysAreRejected() {
        #expect(throws: YAMLError(message: "mapping keys must be scalars", mark: Mark(line: 1, column: 3))) {
            try YAMLParser.parse("? [a]\n: 1\n")
        }
    }

    @Test func deepNestingIsRejectedBeforeTheStackRunsOut() {
        let text = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
        #expect(throws: YAMLError.self) { try YAMLParser.parse(text) }
    }
}

/// Aliases count toward the depth limit with the height of what they copy (issue 8).
@Suite struct YAMLAliasDepthTests {
    static func chain(_ levels: Int) -> String {
        "a0: &a0 [x]\n" + (1..<levels).map { "a\($0): &a\($0) [*a\($0 - 1)]" }.joined(separator: "\n") + "\n"
    }

    @Test func aChainOfAliasesCannotNestPastTheLimit() {
        // 300 levels spend ~45 k nodes, within the node budget: only the depth can stop it.
        let error = #expect(throws: YAMLError.self) { try YAMLParser.parse(Self.chain(300)) }
        #expect(error?.message == "nesting deeper than 256 levels (through alias 'a254')")
    }

    @Test func aShallowChainIsFine() throws {
        guard case .mapping(let pairs, _) = try YAMLParser.parse(Self.chain(100)) else {
            Issue.record("not a mapping")
            return
        }
        #expect(pairs.count == 100)
    }
}
