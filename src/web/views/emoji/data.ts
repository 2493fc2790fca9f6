/**
 * The unicode emoji the picker offers, with the reference's shortcodes. A compact
 * built-in list (emojibase-data is not a dependency): the faces, hands and symbols
 * people reach for most, the common reactions first.
 */
export interface UnicodeEmoji {
  char: string;
  /** Shortcodes without colons, the first the main one. */
  names: string[];
}

const RAW = `👍 thumbsup +1|❤️ heart|😂 joy|🎉 tada|😮 open_mouth|😢 cry|👀 eyes|✅ white_check_mark|😀 grinning|😃 smiley|😄 smile|😁 grin|😆 laughing|😅 sweat_smile|🤣 rofl|🙂 slight_smile|🙃 upside_down|😉 wink|😊 blush|😇 innocent|🥰 smiling_face_with_hearts|😍 heart_eyes|🤩 star_struck|😘 kissing_heart|😋 yum|😛 stuck_out_tongue|😜 stuck_out_tongue_winking_eye|🤪 zany_face|🤔 thinking|🤗 hugging|🤭 hand_over_mouth|🤫 shushing_face|🤐 zipper_mouth|😐 neutral_face|😑 expressionless|😶 no_mouth|😏 smirk|😒 unamused|🙄 rolling_eyes|😬 grimacing|😌 relieved|😔 pensive|😪 sleepy|😴 sleeping|😷 mask|🤒 thermometer_face|🤢 nauseated_face|🤮 face_vomiting|🥵 hot_face|🥶 cold_face|😵 dizzy_face|🤯 exploding_head|🤠 cowboy|🥳 partying_face|😎 sunglasses|🤓 nerd|🧐 monocle_face|😕 confused|😟 worried|🙁 slight_frown|😯 hushed|😲 astonished|😳 flushed|🥺 pleading_face|😦 frowning|😧 anguished|😨 fearful|😰 cold_sweat|😥 disappointed_relieved|😭 sob|😱 scream|😖 confounded|😣 persevere|😞 disappointed|😓 sweat|😩 weary|😫 tired_face|🥱 yawning_face|😤 triumph|😡 rage|😠 angry|🤬 face_with_symbols_over_mouth|😈 smiling_imp|💀 skull|💩 poop|🤡 clown|👻 ghost|👽 alien|🤖 robot|😺 smiley_cat|👋 wave|🤚 raised_back_of_hand|✋ raised_hand|🖖 vulcan|👌 ok_hand|🤌 pinched_fingers|✌️ v|🤞 fingers_crossed|🤟 love_you_gesture|🤘 metal|🤙 call_me|👈 point_left|👉 point_right|👆 point_up_2|👇 point_down|👎 thumbsdown -1|✊ fist|👊 punch|👏 clap|🙌 raised_hands|👐 open_hands|🤝 handshake|🙏 pray|💪 muscle|🧠 brain|👁️ eye|💋 kiss|💯 100|💢 anger|💥 boom|💫 dizzy|💦 sweat_drops|💤 zzz|🔥 fire|✨ sparkles|⭐ star|🌟 star2|⚡ zap|🌈 rainbow|☀️ sunny|🌙 crescent_moon|❄️ snowflake|☕ coffee|🍵 tea|🍺 beer|🍻 beers|🍷 wine_glass|🍕 pizza|🍔 hamburger|🍟 fries|🌮 taco|🍣 sushi|🍰 cake|🎂 birthday|🍪 cookie|🍎 apple|🍌 banana|🎈 balloon|🎁 gift|🏆 trophy|🥇 first_place|⚽ soccer|🏀 basketball|🎮 video_game|🎲 game_die|🎵 musical_note|🎶 notes|📌 pushpin|📎 paperclip|📝 pencil|📅 date|📈 chart_with_upwards_trend|📉 chart_with_downwards_trend|💡 bulb|🔔 bell|🔒 lock|🔑 key|🛠️ tools|⚙️ gear|🚀 rocket|✈️ airplane|🚗 red_car|🏠 house|🌍 earth_africa|🐶 dog|🐱 cat|🦊 fox|🐻 bear|🐼 panda_face|🐸 frog|🐵 monkey_face|🦄 unicorn|🐝 bee|🐢 turtle|🐍 snake|🌵 cactus|🌲 evergreen_tree|🌸 cherry_blossom|🌹 rose|🌻 sunflower|🍀 four_leaf_clover|💔 broken_heart|💕 two_hearts|💖 sparkling_heart|💙 blue_heart|💚 green_heart|💛 yellow_heart|💜 purple_heart|🖤 black_heart|🤍 white_heart|🧡 orange_heart|❗ exclamation|❓ question|⚠️ warning|🚫 no_entry_sign|⛔ no_entry|❌ x|⭕ o|✔️ heavy_check_mark|➕ heavy_plus_sign|➖ heavy_minus_sign|🆗 ok|🆕 new|🆒 cool|🔴 red_circle|🟢 green_circle|🔵 blue_circle|🏁 checkered_flag|🚩 triangular_flag_on_post|🏳️ white_flag`;

export const UNICODE_EMOJI: UnicodeEmoji[] = RAW.split("|").map((entry) => {
  const [char, ...names] = entry.split(" ");
  return { char: char!, names };
});
