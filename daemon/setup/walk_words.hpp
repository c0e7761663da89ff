// The castle walk's sentences (castle_walk.hpp): its prompts
// (`castle.walk.*`), its findings (`castle.finding.*`) and their fixes
// (`castle.fix.*`), each an engine::Message whose words are the catalogs'.
// A wire is named as daemon/config/wiring.hpp names it.
#pragma once

#include <optional>
#include <utility>

#include "daemon/setup/castle_walk.hpp"

namespace vivaref::setup::words {

using engine::Message;

Message ledName(const WalkLed& led);
Message keyPrompt(const WalkKey& key);
Message tagPrompt(const WalkReader& reader, int spot, int spots);

// Readers asked.
std::pair<Message, Message> readerSilent(const WalkReader& reader);
std::pair<Message, Message> readerWrongVersion(const WalkReader& reader);
std::pair<Message, Message> readerGarbled(const WalkReader& reader, int garbled, int scans);
std::pair<Message, Message> readerBus(const WalkReader& reader);
std::pair<Message, Message> readerFlaky(const WalkReader& reader, int failures, int scans);
std::pair<Message, Message> readerClone(const WalkReader& reader, const castle::ReaderChip& chip);
std::pair<Message, Message> crossRead(const WalkReader& a, const WalkReader& b, const drivers::TagUid& tag);
// LEDs, keys.
std::pair<Message, Message> ledDark(const WalkLed& led);
std::pair<Message, Message> keyStuck(const WalkKey& key);
std::pair<Message, Message> keySilent(const WalkKey& key);
std::pair<Message, Message> keyCrossed(const WalkKey& asked, const WalkKey& answered);
// The tag walk.
std::pair<Message, Message> tagUnread(const WalkReader& over);
std::pair<Message, Message> tagSwapped(const WalkReader& over, const WalkReader& seenBy);
std::pair<Message, Message> tagCoupled(const WalkReader& over, const WalkReader& a, const WalkReader& b);

}  // namespace vivaref::setup::words
