import MemhuntFormats
import Testing

@Suite struct ReproViewAndImageTests {
    @Test func pviewsOfTheDetailScreen() throws {
        guard case .viewHierarchy(let dump) = try ReproFixture.read("pviews-detail.txt") else {
            Issue.record("not a view hierarchy")
            return
        }
        #expect(dump.layers == 3573)
        #expect(dump.views == 3073)
        #expect(
            dump.layerClasses == [
                "UIWindowLayer": 1, "CALayer": 2505, "_UILabelContentLayer": 500, "CAGradientLayer": 566,
                "_UILabelLayer": 1,
            ])
        #expect(dump.maxDepth == 7)
    }

    @Test func labelTextCannotFakeALayer() throws {
        let text = "<UILabel: 0x1; frame = (0 0; 1 1); text = 'x layer = <Fake: 0x2>'; layer = <_UILabelLayer: 0x3>>\n"
        let dump = try ViewHierarchyDump.parse(Array(text.utf8)).get()
        #expect(dump.layerClasses == ["_UILabelLayer": 1])
    }

    @Test(arguments: [
        ("illustration-1024.png", ImageInfo(format: "png", width: 1024, height: 1024)),
        ("image-2048x1536.jpg", ImageInfo(format: "jpeg", width: 2048, height: 1536)),
        ("image-4032x3024.heic", ImageInfo(format: "heic", width: 4032, height: 3024)),
    ])
    func imageDimensions(name: String, expected: ImageInfo) throws {
        #expect(try ReproFixture.read(name) == .image(expected))
    }

    @Test func decodedBitmapCost() {
        #expect(ImageInfo(format: "png", width: 1024, height: 1024).decodedBytes == 4_194_304)
    }
}
