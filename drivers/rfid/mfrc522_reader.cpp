#include "drivers/rfid/mfrc522_reader.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <span>

namespace vivaref::drivers {
namespace {

using mfrc522::RadioTask;
using mfrc522::Reply;
using mfrc522::Status;

// ISO/IEC 14443-3 §6.4: the commands of the select sequence.
constexpr std::uint8_t kReqa = 0x26;  // a short frame of 7 bits
constexpr std::uint8_t kHlta[] = {0x50, 0x00};
constexpr std::uint8_t kSelectCodes[] = {0x93, 0x95, 0x97};  // cascade levels 1, 2, 3
constexpr std::uint8_t kCascadeTag = 0x88;                   // §6.5.4: "more UID bytes follow"
constexpr std::uint8_t kSelectNvb = 0x70;                    // 7 bytes: SEL, NVB, 4 UID bytes, BCC
constexpr std::uint8_t kSakCascadeBit = 0x04;                // §6.5.3.4
// The CRC_A of HLTA, known from the standard: checks the chip's coprocessor at start-up.
constexpr std::uint8_t kHltaCrc[] = {0x57, 0xCD};
// Answer lengths in bits, for the chip to know when to look (§6.4: ATQA, SAK and its CRC_A).
constexpr std::size_t kAtqaBits = 16, kSakBits = 24, kCascadeLevelBits = 40;

std::uint8_t bitsBelow(int n) { return static_cast<std::uint8_t>((1u << n) - 1u); }

std::size_t cascadeLevels(const TagUid& uid) { return uid.size() == 4 ? 1 : uid.size() == 7 ? 2 : 3; }

// ISO/IEC 14443-3 §6.5.4: CLn of a known UID, levels before the last holding
// the cascade tag and three UID bytes, then the BCC.
std::array<std::uint8_t, 5> knownCascadeLevel(const TagUid& uid, std::size_t level) {
    std::array<std::uint8_t, 5> known{};
    const auto bytes = uid.bytes();
    std::size_t at = 0;
    if (level + 1 < cascadeLevels(uid)) known[at++] = kCascadeTag;
    std::copy_n(bytes.begin() + static_cast<std::ptrdiff_t>(level * 3), 4 - at, known.begin() + at);
    known[4] = static_cast<std::uint8_t>(known[0] ^ known[1] ^ known[2] ^ known[3]);
    return known;
}

// CRC_A, ISO/IEC 14443-3 §6.2.4 and Annex B: the byte-wise form of the CCITT
// polynomial taken LSB first, preset 0x6363. Computed here rather than by the
// chip's coprocessor, which costs a command and a dozen bus transfers per frame.
constexpr std::uint16_t crcA(std::span<const std::uint8_t> data) {
    std::uint16_t crc = 0x6363;
    for (std::uint8_t byte : data) {
        auto b = static_cast<std::uint8_t>(byte ^ (crc & 0xFF));
        b = static_cast<std::uint8_t>(b ^ (b << 4));
        crc = static_cast<std::uint16_t>((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4));
    }
    return crc;
}
static_assert(crcA(std::array<std::uint8_t, 2>{kHlta[0], kHlta[1]}) == (kHltaCrc[0] | kHltaCrc[1] << 8));
static_assert(crcA(std::array<std::uint8_t, 2>{0x00, 0x00}) == 0x1EA0);  // Annex B's example

}  // namespace

Mfrc522Reader::Mfrc522Reader(SpiTransport& spi, Mfrc522ReaderConfig config)
    : chip_(spi, config.name, config.timing), config_(std::move(config)) {}

Status Mfrc522Reader::protocolError(const std::string& what) const {
    return ScanError{ScanErrorKind::Protocol, "reader " + config_.name + ": " + what};
}

Status Mfrc522Reader::initialize() {
    scan_.reset();       // a scan under way, if any, is abandoned with the chip's state
    antennaOn_ = false;  // a soft reset switches the field off
    knownTag_.reset();
    version_ = 0;  // until VersionReg is read again: a chip that fails its reset says nothing
    if (auto f = chip_.softReset()) return f;
    if (auto f = chip_.checkVersion(version_)) return f;
    if (auto f = chip_.configureForIso14443A()) return f;
    // The coprocessor is not used for frames, but a chip that gets it wrong is broken.
    std::array<std::uint8_t, 2> hltaCrc{};
    if (auto f = chip_.calculateCrc(kHlta, hltaCrc)) return f;
    if (!std::equal(hltaCrc.begin(), hltaCrc.end(), std::begin(kHltaCrc))) {
        return protocolError("the CRC coprocessor gets HLTA's CRC_A wrong");
    }
    return std::nullopt;
}

std::error_code Mfrc522Reader::antennaOn() {
    auto ec = chip_.setAntenna(true);
    antennaOn_ = !ec;
    return ec;
}

std::error_code Mfrc522Reader::antennaOff() {
    antennaOn_ = false;
    return chip_.setAntenna(false);
}

ScanResult Mfrc522Reader::scan() {
    assert(!scan_);  // one scan at a time per chip
    chip_.setRadioWaits(mfrc522::RadioWaits::OnTheBus);
    RadioTask<ScanResult> task = scanAndRemember();
    task.start();
    assert(task.done());  // every radio wait was on the bus: nothing stopped it
    return task.take();
}

void Mfrc522Reader::beginScan() {
    assert(!scan_);
    chip_.setRadioWaits(mfrc522::RadioWaits::GiveBusBack);
    chip_.pause() = {};
    scan_.emplace(scanAndRemember());
}

std::optional<std::chrono::microseconds> Mfrc522Reader::continueScan() {
    assert(scan_ && !scan_->done());
    if (auto stopped = std::exchange(chip_.pause().resume, {}))
        stopped.resume();
    else
        scan_->start();
    if (scan_->done()) return std::nullopt;
    return chip_.pause().wait;
}

ScanResult Mfrc522Reader::takeScanResult() {
    assert(scan_ && scan_->done());
    ScanResult result = scan_->take();
    scan_.reset();
    return result;
}

RadioTask<ScanResult> Mfrc522Reader::scanAndRemember() {
    ScanResult result = co_await scanField();
    knownTag_.reset();
    knownTags_.clear();
    if (result.ok()) {
        const TagSet& tags = result.tags();
        if (tags.size() == 1 && tags.begin()->size() > 4) knownTag_ = *tags.begin();
        if (tags.size() >= 2) knownTags_ = tags;
    }
    co_return result;
}

RadioTask<ScanResult> Mfrc522Reader::scanField() {
    cost_ = ScanCost{};
    if (!antennaOn_) {
        co_return ScanError{ScanErrorKind::AntennaOff,
                            "reader " + config_.name + ": scan with the antenna off"};
    }
    const bool checkOne = config_.checkKnownTag && knownTag_;
    const bool checkSet = config_.checkKnownTags && knownTags_.size() >= 2;
    if (!checkOne && !checkSet) co_return co_await inventory(false);

    const mfrc522::BusCounters before = chip_.counters();
    auto finish = [&](ScanResult result) {
        cost_.spiTransfers = chip_.counters().transfers - before.transfers;
        cost_.spiBytes = chip_.counters().bytes - before.bytes;
        return result;
    };
    cost_.checkedKnownTag = checkOne;
    cost_.checkedKnownTags = checkSet;
    if (auto f = chip_.checkVersion(version_)) co_return finish(*f);
    TagSet confirmed;
    bool settled = false;
    if (checkSet) {
        if (auto f = co_await checkKnownSet(knownTags_, confirmed, settled)) co_return finish(*f);
    } else {
        KnownTagCheck outcome = KnownTagCheck::Changed;
        if (auto f = co_await checkKnownTag(*knownTag_, outcome)) co_return finish(*f);
        settled = outcome != KnownTagCheck::Changed;
        if (outcome == KnownTagCheck::Confirmed) {
            confirmed.insert(*knownTag_);
            ++cost_.knownTagsConfirmed;
        }
    }
    if (!settled) {
        const ScanCost check = cost_;
        ScanResult result = co_await inventory(true);
        // One scan: the check's frames count with the inventory's.
        cost_.requests += check.requests;
        cost_.anticollisions += check.anticollisions;
        cost_.selects += check.selects;
        cost_.halts += check.halts;
        cost_.noReplies += check.noReplies;
        cost_.collisions += check.collisions;
        cost_.checkedKnownTag = check.checkedKnownTag;
        cost_.checkedKnownTags = check.checkedKnownTags;
        cost_.knownTagsConfirmed = check.knownTagsConfirmed;
        if (!result.ok() || confirmed.empty()) co_return finish(std::move(result));
        // The tags the check halted stay silent for the inventory's REQAs.
        confirmed.insert(result.tags().begin(), result.tags().end());
        co_return finish(std::move(confirmed));
    }
    // As after any inventory: the answers just read came from a live chip.
    if (auto f = chip_.checkVersion(version_)) co_return finish(*f);
    cost_.knownTagConfirmed = checkSet ? confirmed == knownTags_ : !confirmed.empty();
    co_return finish(std::move(confirmed));
}

RadioTask<Status> Mfrc522Reader::checkKnownSet(const TagSet& known, TagSet& confirmed, bool& settled) {
    settled = false;
    // Garbage on the air is the full inventory's to judge (it retries); a dead chip or bus is an error now.
    auto judge = [&](Status f) -> Status {
        if (f && f->kind == ScanErrorKind::Protocol) return std::nullopt;
        return f;
    };
    const std::uint8_t reqa[] = {kReqa};
    // The set's first UID is a shortest one (TagUid's order): checked last, as a lone tag.
    const TagUid& last = *known.begin();
    for (auto it = std::next(known.begin()); it != known.end(); ++it) {
        // The first REQA wakes every tag; the next ones, those a SELECT not their own sent back to IDLE.
        Reply reply;
        ++cost_.requests;
        if (auto f = co_await chip_.transceive(reqa, 7, 0, kAtqaBits, reply)) co_return judge(f);
        if (reply.outcome == Reply::Outcome::NoReply) {
            // Every tag not halted was in IDLE: none is left but those confirmed.
            ++cost_.noReplies;
            settled = true;
            co_return std::nullopt;
        }
        if (reply.outcome == Reply::Outcome::Collision) ++cost_.collisions;  // tags of different kinds
        bool selected = false;
        if (auto f = co_await selectAndHaltKnownTag(*it, selected)) co_return judge(f);
        if (!selected) co_return std::nullopt;
        confirmed.insert(*it);
        ++cost_.knownTagsConfirmed;
    }
    KnownTagCheck outcome = KnownTagCheck::Changed;
    if (auto f = co_await checkKnownTag(last, outcome)) co_return f;
    settled = outcome != KnownTagCheck::Changed;
    if (outcome == KnownTagCheck::Confirmed) {
        confirmed.insert(last);
        ++cost_.knownTagsConfirmed;
    }
    co_return std::nullopt;
}

RadioTask<Status> Mfrc522Reader::selectAndHaltKnownTag(const TagUid& uid, bool& selected) {
    selected = false;
    const std::size_t levels = cascadeLevels(uid);
    for (std::size_t level = 0; level < levels; ++level) {
        bool lost = false;
        std::uint8_t sak = 0;
        if (auto f = co_await selectLevel(kSelectCodes[level], knownCascadeLevel(uid, level), sak, lost))
            co_return f;
        if (lost) co_return std::nullopt;  // not there
        const bool more = (sak & kSakCascadeBit) != 0;
        if (more != (level + 1 < levels)) co_return std::nullopt;  // not the tag we know
    }
    selected = true;
    co_return co_await halt();
}

RadioTask<Status> Mfrc522Reader::checkKnownTag(const TagUid& uid, KnownTagCheck& outcome) {
    outcome = KnownTagCheck::Changed;
    // Garbage on the air is the full inventory's to judge (it retries); a dead chip or bus is an error now.
    auto judge = [&](Status f) -> Status {
        if (f && f->kind == ScanErrorKind::Protocol) return std::nullopt;
        return f;
    };
    Reply reply;
    ++cost_.requests;
    const std::uint8_t reqa[] = {kReqa};
    if (auto f = co_await chip_.transceive(reqa, 7, 0, kAtqaBits, reply)) co_return judge(f);
    if (reply.outcome == Reply::Outcome::NoReply) {
        ++cost_.noReplies;
        outcome = KnownTagCheck::FieldEmpty;
        co_return std::nullopt;
    }
    if (reply.outcome == Reply::Outcome::Collision) {
        ++cost_.collisions;  // tags of different kinds
        co_return std::nullopt;
    }
    const std::size_t levels = cascadeLevels(uid);
    for (std::size_t level = 0; level < levels; ++level) {
        const std::array<std::uint8_t, 5> known = knownCascadeLevel(uid, level);
        if (level + 1 < levels) {
            bool lost = false;
            std::uint8_t sak = 0;
            if (auto f = co_await selectLevel(kSelectCodes[level], known, sak, lost)) co_return judge(f);
            if (lost || !(sak & kSakCascadeBit)) co_return std::nullopt;  // not there, or another tag
            continue;
        }
        // Every tag selected this far answers with its last level: ours alone, or a collision.
        const std::uint8_t frame[] = {kSelectCodes[level], 0x20};
        ++cost_.anticollisions;
        if (auto f = co_await chip_.transceive(frame, 0, 0, kCascadeLevelBits, reply)) co_return judge(f);
        if (reply.outcome == Reply::Outcome::NoReply) ++cost_.noReplies;
        if (reply.outcome == Reply::Outcome::Collision) ++cost_.collisions;
        if (reply.outcome != Reply::Outcome::Received || reply.size != 5 || reply.lastBits != 0 ||
            !std::equal(known.begin(), known.end(), reply.bytes.begin())) {
            co_return std::nullopt;
        }
    }
    // A 4-byte tag (only ever the last of a set): the ANTICOLLISION reached every tag awake.
    if (levels == 1) {
        outcome = KnownTagCheck::Confirmed;
        co_return std::nullopt;
    }
    // The known tag waits in READY and takes this REQA as an error, in silence;
    // any other tag is in IDLE and answers.
    ++cost_.requests;
    if (auto f = co_await chip_.transceive(reqa, 7, 0, kAtqaBits, reply)) co_return judge(f);
    if (reply.outcome != Reply::Outcome::NoReply) co_return std::nullopt;
    ++cost_.noReplies;
    outcome = KnownTagCheck::Confirmed;
    co_return std::nullopt;
}

RadioTask<ScanResult> Mfrc522Reader::inventory(bool tagsMayBeAwake) {
    const mfrc522::BusCounters before = chip_.counters();
    cost_ = ScanCost{};
    auto finish = [&](ScanResult result) {
        cost_.spiTransfers = chip_.counters().transfers - before.transfers;
        cost_.spiBytes = chip_.counters().bytes - before.bytes;
        return result;
    };
    // Two bytes that tell a dead or swapped chip from an empty field.
    if (!tagsMayBeAwake) {
        if (auto f = chip_.checkVersion(version_)) co_return finish(*f);
    }

    TagSet found;
    // The answers just read came from a live chip: one that died during the
    // last transfer reads all zeros, which would pass for a UID and its BCC.
    auto finishFound = [&]() -> ScanResult {
        const Status alive = chip_.checkVersion(version_);
        return finish(alive ? ScanResult(*alive) : ScanResult(found));
    };
    const int maxRounds = config_.maxTagsPerScan + 2 * config_.maxFailedRounds + 1;
    // Tags a check left in READY sit out the first REQA, as after a failed round.
    bool previousRoundFailed = tagsMayBeAwake;
    for (int round = 0; round < maxRounds; ++round) {
        RoundEnd end = RoundEnd::FieldEmpty;
        const bool mayStopAtLoneTag =
            config_.stopAtLoneTag && cost_.failedRounds == 0 && !previousRoundFailed;
        if (auto f = co_await inventoryRound(found, mayStopAtLoneTag, end)) {
            // A garbled frame may be a tag at the edge of the field: try again a few times.
            if (f->kind != ScanErrorKind::Protocol || ++cost_.failedRounds > config_.maxFailedRounds)
                co_return finish(*f);
            previousRoundFailed = true;
            continue;
        }
        if (end == RoundEnd::FieldEmpty) {
            // After a failed round the tags left in READY take that REQA as an
            // error and fall back to IDLE in silence (ISO/IEC 14443-3 §6.3.3): ask again.
            if (!previousRoundFailed) co_return finishFound();
            previousRoundFailed = false;
            continue;
        }
        if (end == RoundEnd::LoneTagRead) {
            cost_.stoppedAtLoneTag = true;
            co_return finishFound();
        }
        previousRoundFailed = end == RoundEnd::TagLost;
        if (end == RoundEnd::TagLost) ++cost_.failedRounds;
        if (static_cast<int>(found.size()) > config_.maxTagsPerScan ||
            cost_.failedRounds > config_.maxFailedRounds) {
            break;
        }
    }
    co_return finish(*protocolError("inventory did not end after " + std::to_string(found.size()) +
                                    " tags and " + std::to_string(cost_.failedRounds) + " failed rounds"));
}

RadioTask<Status> Mfrc522Reader::inventoryRound(TagSet& found, bool mayStopAtLoneTag, RoundEnd& end) {
    Reply atqa;
    ++cost_.requests;
    const int collisionsBefore = cost_.collisions;
    const std::uint8_t reqa[] = {kReqa};
    if (auto f = co_await chip_.transceive(reqa, 7, 0, kAtqaBits, atqa)) co_return f;
    if (atqa.outcome == Reply::Outcome::NoReply) {
        ++cost_.noReplies;
        end = RoundEnd::FieldEmpty;
        co_return std::nullopt;
    }
    // ATQAs of tags with different UID sizes collide; that only says several tags are there.
    if (atqa.outcome == Reply::Outcome::Collision) mayStopAtLoneTag = false;

    std::uint8_t uid[TagUid::kMaxSize];
    std::size_t uidSize = 0;
    for (std::uint8_t selectCode : kSelectCodes) {
        std::array<std::uint8_t, 5> level{};
        bool lost = false;
        std::uint8_t sak = 0;
        if (auto f = co_await resolveCascadeLevel(selectCode, level, lost)) co_return f;
        const bool lastLevel = selectCode == kSelectCodes[2];
        if (!lost && mayStopAtLoneTag && cost_.collisions == collisionsBefore &&
            (lastLevel || level[0] != kCascadeTag)) {
            // No collision anywhere in this round: this was the only tag left, and its UID is complete.
            std::copy(level.begin(), level.begin() + 4, uid + uidSize);
            found.insert(TagUid(std::span<const std::uint8_t>(uid, uidSize + 4)));
            end = RoundEnd::LoneTagRead;
            co_return std::nullopt;
        }
        if (!lost) {
            if (auto f = co_await selectLevel(selectCode, level, sak, lost)) co_return f;
        }
        if (lost) {
            end = RoundEnd::TagLost;  // it left the field mid-sequence: the next REQA tells
            co_return std::nullopt;
        }
        const bool more = (sak & kSakCascadeBit) != 0;
        if (more != (!lastLevel && level[0] == kCascadeTag)) {
            co_return protocolError("SAK and cascade tag disagree on whether the UID goes on");
        }
        const std::size_t skip = more ? 1 : 0;  // the cascade tag is not part of the UID
        std::copy(level.begin() + static_cast<std::ptrdiff_t>(skip), level.begin() + 4, uid + uidSize);
        uidSize += 4 - skip;
        if (!more) {
            if (auto f = co_await halt()) co_return f;
            found.insert(TagUid(std::span<const std::uint8_t>(uid, uidSize)));
            end = RoundEnd::TagRead;
            co_return std::nullopt;
        }
    }
    co_return protocolError("SAK still announces more UID bytes after cascade level 3");
}

RadioTask<Status> Mfrc522Reader::resolveCascadeLevel(std::uint8_t selectCode,
                                                     std::array<std::uint8_t, 5>& level, bool& lost) {
    // ISO/IEC 14443-3 §6.5.3.1: send the bits known so far, the tags whose UID
    // starts with them answer with the rest; where their bits differ the chip
    // sees a collision, we pick the 1 branch and ask again. Each round fixes at
    // least one more of the 32 UID bits, hence the bound.
    int knownBits = 0;
    for (int attempt = 0; attempt <= 32; ++attempt) {
        const int fullBytes = knownBits / 8;
        const int partialBits = knownBits % 8;
        const int sentUidBytes = fullBytes + (partialBits ? 1 : 0);
        std::array<std::uint8_t, 7> frame{selectCode,
                                          static_cast<std::uint8_t>(((2 + fullBytes) << 4) | partialBits)};
        std::copy_n(level.begin(), sentUidBytes, frame.begin() + 2);

        Reply reply;
        ++cost_.anticollisions;
        const auto bits = static_cast<std::uint8_t>(partialBits);
        if (auto f = co_await chip_.transceive(
                std::span(frame.data(), 2 + static_cast<std::size_t>(sentUidBytes)), bits, bits,
                kCascadeLevelBits - static_cast<std::size_t>(knownBits), reply)) {
            co_return f;
        }
        if (reply.outcome == Reply::Outcome::NoReply) {
            ++cost_.noReplies;
            lost = true;
            co_return std::nullopt;
        }
        if (fullBytes + reply.size > level.size()) co_return protocolError("anticollision answer too long");
        // The first answer byte continues the partial byte we sent (RxAlign).
        level[fullBytes] = static_cast<std::uint8_t>((level[fullBytes] & bitsBelow(partialBits)) |
                                                     (reply.bytes[0] & ~bitsBelow(partialBits)));
        std::copy_n(reply.bytes.begin() + 1, reply.size - 1, level.begin() + fullBytes + 1);

        if (reply.outcome == Reply::Outcome::Collision) {
            ++cost_.collisions;
            // CollPos counts from bit 0 of the first FIFO byte, RxAlign included.
            const int collidedBit = fullBytes * 8 + reply.collisionPosition - 1;
            if (collidedBit < knownBits || collidedBit >= 32) {
                co_return protocolError("collision at UID bit " + std::to_string(collidedBit) + " with " +
                                        std::to_string(knownBits) + " bits known");
            }
            const int byte = collidedBit / 8;
            level[byte] = static_cast<std::uint8_t>((level[byte] & bitsBelow(collidedBit % 8)) |
                                                    (1u << (collidedBit % 8)));
            std::fill(level.begin() + byte + 1, level.end(), 0);
            knownBits = collidedBit + 1;
            continue;
        }
        const std::size_t receivedBits = reply.size * 8 - static_cast<std::size_t>(partialBits) -
                                         (reply.lastBits ? 8u - reply.lastBits : 0u);
        if (receivedBits != static_cast<std::size_t>(40 - knownBits)) {
            co_return protocolError("anticollision answer of " + std::to_string(receivedBits) +
                                    " bits, expected " + std::to_string(40 - knownBits));
        }
        if ((level[0] ^ level[1] ^ level[2] ^ level[3]) != level[4])
            co_return protocolError("UID check byte (BCC) wrong");
        co_return std::nullopt;
    }
    co_return protocolError("anticollision did not converge");
}

RadioTask<Status> Mfrc522Reader::selectLevel(std::uint8_t selectCode, std::array<std::uint8_t, 5> level,
                                             std::uint8_t& sak, bool& lost) {
    std::array<std::uint8_t, 9> frame{selectCode, kSelectNvb, level[0], level[1],
                                      level[2],   level[3],   level[4]};
    const std::uint16_t crc = crcA(std::span(frame.data(), 7));
    frame[7] = static_cast<std::uint8_t>(crc & 0xFF);
    frame[8] = static_cast<std::uint8_t>(crc >> 8);

    Reply reply;
    ++cost_.selects;
    if (auto f = co_await chip_.transceive(frame, 0, 0, kSakBits, reply)) co_return f;
    if (reply.outcome == Reply::Outcome::NoReply) {
        ++cost_.noReplies;
        lost = true;
        co_return std::nullopt;
    }
    if (reply.outcome == Reply::Outcome::Collision)
        co_return protocolError("collision on SAK: two tags selected");
    if (reply.size != 3 || reply.lastBits != 0) co_return protocolError("SAK is not one byte and a CRC_A");
    sak = reply.bytes[0];
    const std::uint16_t sakCrc = crcA(std::span(reply.bytes.data(), 1));
    if ((sakCrc & 0xFF) != reply.bytes[1] || (sakCrc >> 8) != reply.bytes[2])
        co_return protocolError("SAK's CRC_A wrong");
    co_return std::nullopt;
}

RadioTask<Status> Mfrc522Reader::halt() {
    // §6.4.3: a tag that understood HLTA stays silent, so nothing to wait for but the end of sending.
    ++cost_.halts;
    const std::uint8_t frame[] = {kHlta[0], kHlta[1], kHltaCrc[0], kHltaCrc[1]};
    co_return co_await chip_.transmit(frame);
}

}  // namespace vivaref::drivers
