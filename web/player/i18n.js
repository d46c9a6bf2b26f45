// Every word the page itself draws, in Simplified Chinese (the default) and English: one catalogue.
// What the server draws (status lines, prompts, option labels) comes already in the seat's language.
export const LANGUAGES = ['zh-CN', 'en']
const STORE = 'deckhand.lang'
const TEXT_STYLE = '\uFE0E' // after a suit: the text glyph, never the emoji presentation

const CATALOGUE = {
  'zh-CN': {
    title: 'Deckhand 牌手',
    online: '在线',
    offline: '离线',
    connecting: '正在连接…',
    lag: '延迟 {ms} 毫秒',
    retry: '{s} 秒后重连',
    waiting: '等待牌局开始…',
    board: '第 {b} 副 · 座位 {s}',
    game: '第 {b} 局 · 座位 {s}',
    yourTurn: '轮到你',
    seconds: '{n} 秒',
    ended: '本副结束',
    gameEnded: '本局结束',
    results: '查看成绩',
    stopped: '本副暂停，已呼叫裁判',
    gameStopped: '本局暂停，已呼叫裁判',
    hand: '手牌',
    noCards: '没有手牌',
    selected: '已选 {n} 张',
    clear: '取消选择',
    call: '呼叫裁判',
    called: '已呼叫裁判',
    confirm: '出牌需再点一次确认',
    confirmAgain: '再点一次“{label}”确认',
    contrast: '高对比度',
    switchLanguage: 'English',
    switchLanguageName: '切换到英文',
    selectFirst: '请先选牌',
    cannotSelect: '这张牌现在不能选',
    emptySquare: '空',
    notYourMove: '现在不是你走棋',
    cannotPick: '请先选一枚能走的棋子',
    pickSquares: '请先在棋盘上选点',
    refused: '未被接受：{why}',
    sending: '发送中…',
    unknownDevice: '此设备尚未登记',
    askReferee: '请联系裁判登记此设备',
    noSeat: '此链接没有座位信息：请重新打开你的参赛链接',
    badCredentials: '连接被拒绝：链接无效或已撤销',
    noConfig: '无法读取赛场设置（/play/config.json）',
    status: '牌局信息',
    gameStatus: '对局信息',
    settings: '设置',
    options: '选项',
    card: '{suit} {rank}',
    joker: { BJ: '小王', RJ: '大王' },
    suits: { S: '黑桃', H: '红桃', C: '梅花', D: '方块' },
    ranks: { T: '10', J: 'J', Q: 'Q', K: 'K', A: 'A' },
    reasons: {
      not_your_turn: '还没轮到你',
      not_in_hand: '你手里没有这些牌',
      not_a_combination: '这些牌不成牌型',
      does_not_beat: '打不过上家的牌',
      wrong_size: '张数不对',
      must_contain_d3: '第一手牌必须包含方块 3',
      must_play_highest_single: '下家只剩一张牌：出单张必须出最大的',
      cannot_pass_lead: '首家不能不出',
      phase_closed: '这个阶段已经结束',
      already_decided: '你已经决定过了',
      duplicate_card: '同一张牌选了两次',
      malformed: '消息格式有误',
      unknown_device: '此设备尚未登记',
      no_round: '现在没有进行中的轮次',
      not_your_seat: '这不是你的座位',
      bad_card: '无效的牌',
      wrong_board: '不是这一副牌',
      board_over: '这一副已经结束',
      board_stopped: '这一副已暂停',
      reading_needed: '请选择这手牌的组合方式',
      rate_limited: '操作太频繁，请稍候'
    }
  },
  en: {
    title: 'Deckhand player',
    online: 'Online',
    offline: 'Offline',
    connecting: 'Connecting…',
    lag: 'lag {ms} ms',
    retry: 'reconnecting in {s} s',
    waiting: 'Waiting for the board…',
    board: 'Board {b} · seat {s}',
    game: 'Game {b} · seat {s}',
    yourTurn: 'Your turn',
    seconds: '{n} s',
    ended: 'Board over',
    gameEnded: 'Game over',
    results: 'See the results',
    stopped: 'Board stopped, referee called',
    gameStopped: 'Game stopped, referee called',
    hand: 'Hand',
    noCards: 'No cards',
    selected: '{n} selected',
    clear: 'Clear selection',
    call: 'Call the referee',
    called: 'Referee called',
    confirm: 'Confirm a play with a second tap',
    confirmAgain: 'Tap “{label}” again to confirm',
    contrast: 'High contrast',
    switchLanguage: '中文',
    switchLanguageName: 'Switch to Chinese',
    selectFirst: 'Select the cards first',
    cannotSelect: 'That card cannot be chosen now',
    emptySquare: 'empty',
    notYourMove: 'It is not your move',
    cannotPick: 'Pick one of your pieces that can move first',
    pickSquares: 'Pick the squares on the board first',
    refused: 'Refused: {why}',
    sending: 'Sending…',
    unknownDevice: 'Unknown device',
    askReferee: 'Ask the referee to register it',
    noSeat: 'This link names no seat: open your join link again',
    badCredentials: 'Connection refused: the link is wrong or revoked',
    noConfig: 'The venue settings (/play/config.json) could not be read',
    status: 'Board status',
    gameStatus: 'Game status',
    settings: 'Settings',
    options: 'Options',
    card: '{rank} of {suit}',
    joker: { BJ: 'black joker', RJ: 'red joker' },
    suits: { S: 'spades', H: 'hearts', C: 'clubs', D: 'diamonds' },
    ranks: { T: '10', J: 'jack', Q: 'queen', K: 'king', A: 'ace' },
    reasons: {
      not_your_turn: 'It is not your turn',
      not_in_hand: 'Those cards are not in your hand',
      not_a_combination: 'Those cards are no combination',
      does_not_beat: 'That does not beat the last play',
      wrong_size: 'Wrong number of cards',
      must_contain_d3: 'The first play must contain the 3 of diamonds',
      must_play_highest_single: 'The next player has one card left: a single must be your highest',
      cannot_pass_lead: 'You cannot pass on your lead',
      phase_closed: 'That phase is over',
      already_decided: 'You have decided already',
      duplicate_card: 'A card was chosen twice',
      malformed: 'The message was malformed',
      unknown_device: 'Unknown device',
      no_round: 'No round is in play',
      not_your_seat: 'Not your seat',
      bad_card: 'Not a card of the game',
      wrong_board: 'Not this board',
      board_over: 'The board is over',
      board_stopped: 'The board is stopped',
      reading_needed: 'Choose how the play reads',
      rate_limited: 'Too many actions: wait a moment'
    }
  }
}

export const SUIT_GLYPHS = { S: '\u2660', H: '\u2665', C: '\u2663', D: '\u2666' }

/** The language from the URL (?lang=), else the one the player chose before, else Chinese. */
export function chooseLanguage (search, storage) {
  const asked = new URLSearchParams(search).get('lang')
  if (LANGUAGES.includes(asked)) {
    remember(storage, asked)
    return asked
  }
  let kept = null
  try { kept = storage.getItem(STORE) } catch { /* storage refused: the default */ }
  return LANGUAGES.includes(kept) ? kept : 'zh-CN'
}

export function remember (storage, lang) {
  try { storage.setItem(STORE, lang) } catch { /* storage refused: for this page only */ }
}

export function translator (lang) {
  const words = CATALOGUE[lang] || CATALOGUE['zh-CN']
  const t = (key, values = {}) => {
    const text = words[key]
    if (typeof text !== 'string') throw new Error(`no words for ${key}`)
    return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ''))
  }
  /** A refusal in words: the code's own when the catalogue knows it, else the server's `why`. */
  t.reason = (code, why) => words.reasons[code] || why || code || ''
  /** A card token's parts for drawing: rank text, suit glyph (text style), suit letter. */
  t.face = (token) => {
    if (token === 'BJ' || token === 'RJ') return { rank: token === 'BJ' ? 'JOKER' : 'JOKER', glyph: '', suit: token }
    const rank = token[1] === 'T' ? '10' : token[1]
    return { rank, glyph: (SUIT_GLYPHS[token[0]] || token[0]) + TEXT_STYLE, suit: token[0] }
  }
  /** A card's accessible name: "红桃 10", "10 of hearts", "大王". */
  t.cardName = (token) => {
    if (token in words.joker) return words.joker[token]
    const suit = words.suits[token[0]] || token[0]
    const rank = words.ranks[token[1]] || token[1]
    return words.card.replace('{suit}', suit).replace('{rank}', rank)
  }
  t.lang = lang
  return t
}
