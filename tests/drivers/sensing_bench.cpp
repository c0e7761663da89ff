// Not a test: the sensing pipeline's cost per full scan cycle of a real-size
// castle (7 places of 4 readers: 28 readers, 14 enrolled tags, each tag on
// two readers of its floor, a garbage UID now and then), plus one update()
// per cycle. Run it under callgrind with two cycle counts and divide the
// difference in instructions by the difference in cycles:
//   valgrind --tool=callgrind sensing_bench 1000   (then 2000)
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "drivers/sensing/sensing_pipeline.hpp"
#include "drivers/sim/simulated_board.hpp"

using namespace vivaref::drivers;

int main(int argc, char** argv) {
    const long cycles = argc > 1 ? std::atol(argv[1]) : 1000;
    BoardLayout layout;
    for (int place = 0; place < 7; ++place) {
        for (char antenna : {'a', 'b', 'c', 'd'}) {
            layout.addReader({"floor" + std::to_string(place) + antenna}, {std::to_string(place)});
        }
    }
    TagRegistry registry;
    std::vector<TagUid> uids;
    for (int i = 0; i < 14; ++i) {
        const std::string slug = "character" + std::to_string(i);
        uids.push_back(simulatedTagUid(slug));
        registry.enrol(uids.back(), {slug});
    }
    // One cycle's scans: tag i stands on floor i/2, over antennas (i%4) and (i%4)+1 mod 4.
    std::vector<TagSet> fields(layout.readerCount());
    for (int i = 0; i < 14; ++i) {
        const std::size_t floor = static_cast<std::size_t>(i / 2);
        fields[floor * 4 + static_cast<std::size_t>(i % 4)].insert(uids[static_cast<std::size_t>(i)]);
        fields[floor * 4 + static_cast<std::size_t>((i + 1) % 4)].insert(uids[static_cast<std::size_t>(i)]);
    }
    const TagUid garbage = TagUid::fromHex("DEADBEEF");

    SensingPipeline pipeline(layout, registry);
    Timestamp now{0};
    std::size_t changes = 0;
    for (long cycle = 0; cycle < cycles; ++cycle) {
        for (ReaderIndex r = 0; r < layout.readerCount(); ++r) {
            TagSet tags = fields[r];
            if ((cycle + static_cast<long>(r)) % 50 == 0) tags.insert(garbage);
            pipeline.addScan(r, ScanResult(std::move(tags)), now);
            now += Timestamp{10};
        }
        changes += pipeline.update(now).changes.size();
    }
    std::printf("{\"cycles\": %ld, \"readers\": %zu, \"tags\": %zu, \"changes\": %zu}\n", cycles,
                layout.readerCount(), registry.size(), changes);
    return changes == 14 ? 0 : 1;
}
