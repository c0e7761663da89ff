// Enrolment: which tag belongs to which character. It asks for each
// character of a roster in turn and records the tag that appears, newly and
// alone, on any reader of the castle (the enrolment reader or any floor).
// Scans in, registry entries and sentences for the person out; time comes in
// with each scan, so it runs the same on the real castle, the simulated one
// and in tests.
//
// A tag "appears" when its reader has seen it in `confirmScans` scans in a
// row (a UID mangled by a collision shows up once and never counts), and it
// is recorded once it has been the only new tag for `settle` (two tags put
// down together are refused rather than taken in whatever order the readers
// read them). A tag that is refused must be lifted before it is considered
// again. A tag already enrolled to another character is refused, naming the
// character; the character's own tag is kept; a new tag for a character that
// had one replaces it.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "drivers/rfid/tag_reader.hpp"
#include "drivers/sensing/tag_registry.hpp"
#include "engine/message.hpp"

namespace vivaref::enrol {

using drivers::Timestamp;

struct EnrolCharacter {
    drivers::CharacterSlug slug;  // "odessa"
    std::string name;             // "Odessa la Contessa"
};

struct EnrolmentConfig {
    int confirmScans = 2;
    // A present tag is gone after this many successful scans of its reader without it.
    int goneAfterMisses = 2;
    Timestamp settle{300};
    // Where the person puts the tags, for the questions: "on any reader of
    // the castle" (enrol.where-*).
    engine::Message where{"enrol.where-any-reader"};
};

enum class EnrolmentEventKind {
    Asking,        // the next character is asked for
    Enrolled,      // a new tag recorded for the character asked for
    Kept,          // the tag shown is already this character's
    TagOfAnother,  // refused: the tag is another character's
    OneAtATime,    // refused: more than one new tag at once
    UnusableTag,   // refused: a UID that cannot identify a tag
    ReaderFault,   // a reader failed (said once until it answers again)
    ReaderBack,    // it answers again
    Skipped,       // the character asked for was skipped
    Done,          // every character has been asked for
};

const char* eventKindName(EnrolmentEventKind kind);

struct EnrolmentEvent {
    EnrolmentEventKind kind;
    std::optional<drivers::CharacterSlug> character;  // the one asked for, if any
    std::optional<drivers::TagUid> tag;
    std::string reader;    // where the tag or fault was
    engine::Message says;  // what the person enrolling is told ("enrol.*")
    std::string message;   // the same in English
};

using EnrolmentEvents = std::vector<EnrolmentEvent>;

// Why a UID cannot name a piece, or nothing when it can: a random UID (a
// single-size UID starting 08 is drawn afresh each time the tag powers up,
// ISO/IEC 14443-3 §6.5.4), the cascade tag 88 as a first byte, all zero, all FF.
std::optional<engine::Message> unusableUidReason(const drivers::TagUid& uid);

class Enrolment {
public:
    // `existing`: the edition's registry so far; its entries are kept unless replaced.
    Enrolment(std::vector<EnrolCharacter> roster, const drivers::TagRegistry& existing,
              EnrolmentConfig config = {});

    // The first question (or Done for an empty roster).
    EnrolmentEvents start();
    // One scan of one reader, at `at`.
    EnrolmentEvents onScan(const std::string& reader, const drivers::ScanResult& result, Timestamp at);
    // The person skips the character asked for.
    EnrolmentEvents skip();

    bool done() const { return next_ >= roster_.size(); }
    const EnrolCharacter* asking() const { return done() ? nullptr : &roster_[next_]; }
    // What enrolling has changed: the existing entries kept, then the new ones.
    drivers::TagRegistry registry() const;
    int enrolledCount() const { return enrolled_; }
    int skippedCount() const { return skipped_; }
    // A tag is present on a reader after confirmScans scans in a row (for a caller that puts tags itself).
    bool isPresent(const drivers::TagUid& tag) const;

private:
    struct ReaderState {
        std::map<drivers::TagUid, int> streak;  // scans in a row that saw the tag
        std::map<drivers::TagUid, int> misses;  // of present tags: scans in a row without it
        std::set<drivers::TagUid> present;
        bool faulty = false;
    };
    struct Newcomer {
        std::string reader;
        Timestamp since;
    };

    void update(const std::string& reader, const drivers::TagSet& tags, Timestamp at);
    void decide(Timestamp at, EnrolmentEvents& events);
    void record(const drivers::TagUid& tag, const std::string& reader, EnrolmentEvents& events);
    void refuse(EnrolmentEventKind kind, const drivers::TagUid& tag, const std::string& reader,
                engine::Message message, EnrolmentEvents& events);
    void advance(EnrolmentEvents& events);
    EnrolmentEvent event(EnrolmentEventKind kind, engine::Message message) const;
    engine::Message question() const;
    engine::MessageValue character(const drivers::CharacterSlug& slug) const;
    engine::MessageValue askedCharacter() const { return character(roster_[next_].slug); }

    std::vector<EnrolCharacter> roster_;
    EnrolmentConfig config_;
    std::size_t next_ = 0;
    std::vector<std::pair<drivers::TagUid, drivers::CharacterSlug>> existing_;  // in the registry's order
    std::map<drivers::TagUid, drivers::CharacterSlug> ownerOf_;
    std::map<drivers::CharacterSlug, drivers::TagUid> tagOf_;
    std::map<std::string, ReaderState> readers_;
    std::map<drivers::TagUid, Newcomer> newcomers_;  // appeared since the question, still present
    std::set<drivers::TagUid> refused_;              // considered again only once lifted
    std::vector<drivers::TagUid> recorded_;          // this session's new tags, in order
    int enrolled_ = 0;
    int skipped_ = 0;
};

}  // namespace vivaref::enrol
