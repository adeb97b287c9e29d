"""Entity mention rules for Vietnamese legal text: fixed names of state bodies and offices, numbered
instruments, parties and documents by head word with their modifier syllables.

Each rule returns (type, start, end, confidence) spans; overlaps are resolved by
`extract.extract`. See extract.py for the types and how confidence is set. Text is NFC.

A party name is a head (người, cơ sở, chủ …) + a short modifier (a relative verb with its object,
or a noun). Without a lexicon the end of the modifier is only certain at a closed-class word or a
punctuation mark, so a run is kept only when it reaches one soon; a shorter, safer name is
preferred to a run-on."""
from __future__ import annotations

import re

_LATIN = [chr(c) for c in list(range(0xC0, 0x250)) + list(range(0x1E00, 0x1F00)) if chr(c).isalpha()]
_LO = "a-z" + "".join(c for c in _LATIN if c.islower())
_UP = "A-Z" + "".join(c for c in _LATIN if c.isupper())
_CAP, _LOW = rf"[{_UP}][{_LO}]*", rf"[{_LO}]+"
_W = rf"[{_UP}{_LO}]"                   # a letter: a syllable starts and ends where none is next
# closed classes that end a modifier: conjunctions, prepositions, demonstratives, quantifiers, time
# and place nouns that open a new phrase ("nơi", "ngày"), and the modals / aspect markers /
# adverbs that open a predicate. Those in _FIRST_OK may open the relative clause itself
# ("người bị hại", "người được bảo hiểm", "người có quyền lợi", "người chưa thành niên").
_PRED = set("phải được có không chưa đã đang sẽ cần nên là bị vẫn cũng đều chỉ còn mới lại cùng tự luôn hãy "
            "đừng chớ gồm bao chịu phù tương".split())     # "phù hợp / tương ứng với": a comparison opens a predicate
_STOP = _PRED | set("thì mà và hoặc hay nhưng nếu khi vì để do bởi của cho với về tại trong ngoài trên dưới theo từ đến qua sau "
                    "trước giữa đối nhằm vào ra lên xuống sang tới kể như bằng trái trở này đó kia ấy nào đây khác các "
                    "những mọi mỗi một hai nhiều toàn tất số nơi ngày tháng năm lúc thời quy trừ xin nộp rõ ngay "
                    "thuộc sao gì ai biết mình".split())  # "cho X biết": the causative complement; "mình": a reflexive
_STOP_ALT = "|".join(sorted(_STOP))
# an organisation head starts a new name, also after "và" / "," (a list is several entities); more capitalised words
# ("Ủy ban Chứng khoán Nhà nước") join a name that closes: at punctuation, a list, or on a capital before a closed-class word
_VI_ORG = (r"(?:Bộ|Sở|Tổng cục|Chi cục|Cục|Ủy ban|Uỷ ban|Hội đồng|Tòa|Toà|Viện|Thủ|Quốc|Thanh|Chính|Ban|"
           r"Văn phòng|Ngân hàng|Kiểm toán|Cơ quan|Trường|Đài|Tập đoàn|Công an|Quân)")
_WORD = rf"(?: (?!{_VI_ORG}(?!{_W})){_CAP}(?: {_LOW})?)"
_END = rf"[,.;:)]|$| (?:và|-) [{_UP}]"
_VI_NAME = rf"{_CAP}(?: (?:{_CAP}|{_LOW}))?(?:{_WORD}*(?: (?!{_VI_ORG}(?!{_W})){_CAP})(?={_END}| (?:{_STOP_ALT})(?!{_W}))|{_WORD}+(?={_END}))?(?:(?: và|,| -) (?!{_VI_ORG}\b){_CAP}(?: (?!(?:có|phải|được|là|và)\b){_LOW})?)*"
_LEVEL = r"(?: (?:tối cao|cấp cao|cấp tỉnh|cấp huyện|cấp xã|cùng cấp|cấp trên(?: trực tiếp)?|cấp dưới|cấp sơ thẩm|cấp phúc thẩm|quân sự(?: trung ương| quân khu| khu vực)?))?"
# an office is a public authority: a title + the body it heads is one authority (Chủ tịch Ủy ban
# nhân dân cấp tỉnh, Chánh án Tòa án nhân dân tối cao); the offices of the courts and of the state
_TITLE = (r"(?:Phó )?(?:Bộ trưởng|Thứ trưởng|Thủ trưởng|Chủ tịch|Chánh án|Viện trưởng|Giám đốc|Cục trưởng|"
          r"Chánh [Tt]hanh tra|Tổng [Tt]hanh tra|Tổng cục trưởng|Chủ nhiệm|Trưởng ban|Tổng Kiểm toán|Thống đốc)")
# a local body's level is part of its name, also relative to the speaker's ("Chủ tịch Ủy ban nhân dân cùng cấp")
_LOCAL = r"(?: các cấp| cấp (?:tỉnh|huyện|xã)| tỉnh| huyện| xã| cùng cấp| cấp trên(?: trực tiếp)?)?"
_BODY = (rf"(?:Ủy|Uỷ) ban nhân dân{_LOCAL}|Hội đồng nhân dân{_LOCAL}|"
         rf"(?:Tòa|Toà) án(?: nhân dân)?{_LEVEL}|Viện kiểm sát(?: nhân dân)?{_LEVEL}|(?:Phó )?Thủ tướng Chính phủ|Chính phủ|Quốc hội|"
         rf"(?:Ủy|Uỷ) ban [Tt]hường vụ Quốc hội|Chủ tịch nước|(?:Bộ|Sở|Tổng cục|Chi cục|Cục|Ủy ban|Uỷ ban|Hội đồng|Ban) {_VI_NAME}")
# an organ named by its function + the body it belongs to is one name, the organ its head ("Ủy ban
# kiểm sát Viện kiểm sát nhân dân cấp cao", "Cơ quan điều tra Bộ Công an")
_ORGAN = (r"(?:(?:Ủy|Uỷ) ban|Hội đồng|Ban|Văn phòng|Cơ quan|Vụ) (?!nhân dân )"
          rf"(?:(?!(?:trực|{_STOP_ALT.replace('|chỉ|', '|')})(?!{_W}))"
          rf"[{_LO}]+ ){{1,3}}")      # its function in content words: "do Quốc hội" is an agent, not a body's name
_OFFICE = (r"Hội đồng xét xử(?: sơ thẩm| phúc thẩm| giám đốc thẩm| tái thẩm)?|Thẩm phán|Hội thẩm(?: nhân dân)?|Kiểm sát viên|Thư ký Tòa án|Thư ký phiên tòa|Điều tra viên|Chấp hành viên|"
           r"Thanh tra viên|Chủ tọa phiên (?:tòa|họp)|Chủ tọa")
_PROCEDURE = (r"lấy lời khai|ghi biên bản|tiếp nhận (?:yêu cầu|hồ sơ|đơn(?: khiếu nại| tố cáo)?)|"
              r"giải quyết (?:khiếu nại|tố cáo)|thụ lý (?:đơn|hồ sơ|vụ án|vụ việc)")
VI_FIXED = [
    ("authority", re.compile(rf"(?<!{_W})(?:(?:{_TITLE}|Hội đồng Thẩm phán) |{_ORGAN}(?=[{_UP}]))?(?:{_BODY})(?!{_W})"), 0.9),
    ("authority", re.compile(rf"(?<!{_W})(?:{_OFFICE}|[Cc]ơ quan (?:nhà nước |quản lý nhà nước )?có thẩm quyền)(?!{_W})"), 0.9),
    ("instrument", re.compile(r"(?:Bộ luật|Luật|Pháp lệnh|Nghị định|Nghị quyết|Thông tư(?: liên tịch)?|Quyết định|Chỉ thị)"
                              r"(?: số)? \d+/\d{4}/[A-ZĐ0-9\-]+"), 0.95),
    # a person named by the exercise of public power or a public office is an office holder, not a regulated party
    ("authority", re.compile(rf"(?<!{_W})[Nn]gười (?:có thẩm quyền|tiến hành tố tụng|giữ chức vụ|có chức vụ, quyền hạn|thi hành công vụ|ra quyết định(?: thanh tra)?|"
                               # the acts of a public procedure (taking a statement, recording the minutes, receiving and
                               # settling filings) are done by an official for the body: the person is an office holder
                               rf"{_PROCEDURE})(?!{_W})"), 0.8),
    ("party", re.compile(r"(?<![\w])(?:[Tt]ổ chức(?=\s*(?:[,.;:)]|$|(?:và|hoặc) (?:cá nhân|người)|cá nhân|phải|không|được|có|là|vi phạm|nước ngoài|trong nước))|"
                         r"[Cc]á nhân|[Dd]oanh nghiệp|[Tt]hương nhân|[Hh]ộ kinh doanh|[Hh]ộ gia đình|[Nn]hà (?:đầu tư|thầu|sản xuất|nhập khẩu|cung cấp)|"
                         r"[Nn]gười sử dụng lao động|[Nn]gười lao động|[Đđ]ương sự|[Pp]háp nhân(?: thương mại)?|[Cc]ông dân)(?![\w])"), 0.7),
]
# -- heads whose name is read by scanning modifier syllables --------------------------------------
# A head word must start a word: the syllable before it must not make a compound of it (tự chủ,
# dân chủ, làm chủ, máy chủ; con người; trên / làm / có cơ sở = "on the basis"), nor a count make it a
# number of persons (hai người, nhiều người), nor a locative make it a place or the grassroots level
# (tại / ở / vào cơ sở), nor a school level (trung học cơ sở); the syllable after must not make a non-actor
# compound (chủ nghĩa / trì / động …, cơ sở dữ liệu / vật chất / hạ tầng / pháp lý).
# A verb of acting on a body ("giết / bắt / giam / giữ / đánh / cứu / bán người") incorporates a bare "người" as
# its object (murder, arrest, trafficking): what follows qualifies the act ("giết người dã man", "bắt người không có
# căn cứ"), unless a relative clause opens with bị / được / phạm / đang (a class: "bắt người đang bị truy nã").
# A verb of building ("hình thành / tạo / xây dựng cơ sở") takes "cơ sở" as a foundation, not an establishment.
_BEFORE = {"chủ": set("tự dân làm quân địa nước máy".split()), "cơ": set("trên làm có tại ở vào học thành tạo dựng".split()),
           "người": set("con đông ít hai ba bốn năm sáu bảy tám chín mười mấy vài nhiều mọi mỗi từng".split())}
_INCORP = set("giết bắt giam giữ đánh cứu bán".split())
_CLASS_OPEN = set("bị được phạm đang".split())
VI_HEADS = [("party", re.compile(rf"(?<!{_W})[Cc]hủ(?! (?:nghĩa|trì|động|yếu|trương|đề|quyền|tịch|tọa|nhiệm|quan|lực|đạo|"
                                 rf"chốt|ý|mưu|đích|tâm|biên|công|điểm|thầu)(?!{_W}))(?= )"), 0.65),
            # an adjective of age ("người lớn", "người già": adults, the old) makes the common noun of people at large
            ("party", re.compile(rf"(?<!{_W})[Nn]gười(?! (?:lớn|già)(?!{_W}))(?= )"), 0.65),
            ("party", re.compile(rf"(?<!{_W})[Cc]ơ sở(?! (?:dữ|vật|hạ|pháp|lý|khoa|thực|chính)(?!{_W}))(?= )"), 0.65),
            # a body named by its function ("cơ quan thanh tra", "cơ quan thi hành án dân sự") is a state body
            ("authority", re.compile(rf"(?<!{_W})[Cc]ơ quan(?= )"), 0.7)]
_LATER = {"vi"}                 # "người vi phạm" is a name, "cơ sở … vi phạm" ends at the verb
_FIRST_OK = set("bị được phải có không chưa đã tự cùng".split())
# a quantifier opens an object, a directional complements a verb: the run before them ends in a verb
_NEW_NP = set("các những mọi mỗi một hai nhiều toàn tất vào ra lên xuống sang tới lại".split())
_CLOSE = set("này đó kia ấy khác mà".split())   # a determiner or "mà" (who) closes the noun phrase
_NUMERAL = set("nhất một hai ba tư bốn năm sáu bảy tám chín mười".split())
_NOMINAL = {"sự", "việc"}                       # a nominaliser: the verb after it is a noun
# a closed-class syllable making a compound with the one before is no boundary: "nước ngoài", "trực thuộc", "cấp trên"
_BOUND = {"ngoài": {"nước"}, "toàn": {"an", "hoàn"}, "thuộc": {"trực"}, "vi": {"hành"}, "trên": {"cấp"}, "dưới": {"cấp"}} | \
    {n: {"thứ"} for n in "một hai bốn năm".split()}      # "cấp trên" (the higher level) is one word
# a closed-class syllable that is a function word only with its partner ("đối với", "tương ứng", "phù hợp"):
# otherwise it starts a content word that completes the name ("đối thoại", "tương trợ")
_PAIRED = {"đối": {"với"}, "tương": {"ứng", "tự", "đương", "đối"}, "phù": {"hợp"}}
# a compound preposition whose first syllable would read as a modifier ("người xem | thông qua …")
_COMPOUND = re.compile(rf"(?:thông qua|dựa (?:vào|trên))(?!{_W})", re.I)
_LIMIT = 4                      # modifier syllables: a run that finds no boundary by then is no name
_SYL = re.compile(rf"(, +| +)({_W}+)(?!{_W})")      # a run of spaces is one space (layout)
# a verb that takes no object (a change of state, assent, expiry) after the modifier is the
# predicate, not part of the name: "người được cấp dưỡng chết", "Giấy phép lao động hết hiệu lực"
# Expiry is "hết" + any period noun ("hết thời hạn", "hết thời hiệu"); a sentence adverb ("đồng thời": at the same
# time, "tuy": although) opens the predicate or a concessive clause, never a modifier: "người sử dụng đất | đồng thời là …"
_INTRANS = re.compile(rf"(?:chết|qua đời|đồng ý|hết (?:hiệu lực|hạn|thời hạn|thời hiệu)|chấm dứt|vắng mặt|bỏ trốn|từ chối|"
                      rf"đồng thời|tuy|tuy nhiên|tối đa|tối thiểu|đơn phương)(?!{_W})")     # an adverb of degree / manner: the predicate's
# a state modifier (bị / cùng / đủ / gặp + …) or the public function "quản lý nhà nước" takes a fixed
# complement "về" + its domain: "người bị hạn chế về thể chất", "cơ quan quản lý nhà nước về du lịch"
_STATE = set("bị cùng đủ gặp".split())
_HEADS = ("người", "cơ", "chủ", "tổ", "cá")
# a list goes on with a new actor: a head, a capital or a noun that names actors; else the comma /
# và / hoặc joins modifiers of one name ("người nhận chăm sóc, nuôi dưỡng"), which runs over the
# coordinated parts (three syllables each at most) to the boundary that closes them, or is dropped
_ACTOR = set(_HEADS) | set("doanh thương hộ nhà pháp đương đơn bên luật trẻ cha mẹ vợ chồng ông bà con gia".split())
# "công" starts nouns of things as well (công việc, công trình): it names an actor only as the citizen, the
# official, the company or the police (công dân, công chức, công ty, công an)
_ACTOR_RX = re.compile(rf"(?:{'|'.join(_ACTOR)}|công (?:dân|chức|ty|an))(?!{_W})", re.I)
_STOPRX = rf" (?:{_STOP_ALT})(?!{_W})"
_RELATIONAL = {"trung ương", "chuyên môn", "thường trực", "đại diện", "điều hành", "chủ quản"}
# a causative verb makes the name after it the subject of a verb series ("hướng dẫn X tiếp nhận, …");
# a clause starts (its first noun phrase is a subject and a predicate follows) after _CLAUSE
_CAUSE = re.compile(r"(?:hướng dẫn|yêu cầu|buộc|đề nghị|cho phép|để cho)\s*$", re.I)
_CLAUSE = re.compile(r"(?:^|[.;:!?\n(]|\b[a-zđ0-9]{1,3}[.)]|\b(?:thì|nếu|khi|mà|hợp|do|bởi|để|được|bị|làm|nơi|Khi|Nếu|Do|Để|Làm))\s*$")
# a name is complete only where its noun phrase closes. "với" (a partner) and "trái" (unlawfully) complement
# the verb right before them ("người gắn bó | với nhau", "người kết hôn | trái pháp luật"); after a relative
# clause (opened by bị / được / có … or of three syllables or more) a topic, possessor, recipient or a second
# clause also belongs to it ("người có trách nhiệm | về …", "người đáp ứng yêu cầu | của vị trí", "người bị
# vị trí"). A compound of one or two syllables (người giám hộ, người thứ ba) takes them as adjuncts, and so does
# a body named by its function (cơ quan ngang bộ, cơ quan đăng ký cư trú); "của" + a person ("người đại diện
# hợp pháp của họ") names the whole phrase's possessor; "giữa X với Y" coordinates. A reflexive object
# ("người nuôi dưỡng | mình") ties the phrase to the sentence's subject: a relation, not a class of persons.
_OPEN_VERB = re.compile(rf" (?:với|trái|mình)(?!{_W})")
# A place or sphere ("trong", "tại", "ở") after a relative clause is its adjunct too ("người có kinh nghiệm | trong công
# tác …", "người có mặt | tại nơi xảy ra …"): the clause goes on past the closed-class word, the name is not bounded there
_OPEN_CLAUSE = re.compile(rf" (?:về|cho|trong|tại|ở|của(?= (?!(?:người|họ|mình|đương|pháp|cá|tổ|cơ|bên)(?!{_W}))[{_LO}]))(?!{_W})")
# aspect words and adverbs of frequency: a modifier made only of them has not reached its verb ("người đã từng")
_ASPECT = set("đã đang sẽ từng vẫn thường xuyên luôn còn".split()) | _FIRST_OK
# "có trách nhiệm" + a verb is the duty modal: the run holds the predicate ("cơ quan có trách nhiệm yêu cầu")
_DUTY = re.compile(rf"\bcó trách nhiệm \w", re.I)


def _parallel(prev: list[str], nxt: list[str]) -> bool:
    """A comma inside a name joins two parallel modifiers ("khám bệnh, chữa bệnh", "phòng, chống"),
    not two entities: same length (at most two syllables) sharing the first or last syllable."""
    if nxt[:1] and nxt[0].lower() in _HEADS:     # a new head: a new entity
        return False
    if [w.lower() for w in prev[-1:]] == ["phòng"] and [w.lower() for w in nxt[:1]] == ["chống"]:
        return True
    return 0 < len(prev) <= 2 and len(prev) == len(nxt) and (prev[0] == nxt[0] or prev[-1] == nxt[-1])


def _run(text: str, pos: int) -> tuple[int, int, str] | None:
    """The modifier after a head ending at `pos`: (end, syllables, what ended it: 'pred' a modal /
    adverb opening a predicate, 'list' a comma / và / hoặc, 'end' punctuation or another closed-class
    word), or None when there is no modifier or no boundary within _LIMIT syllables."""
    end, words, seg, extra = pos, [], [], 0
    while True:
        m = _SYL.match(text, end)
        if not m:
            nxt = text[end:end + 2].strip()[:1]
            if nxt.isdigit() or not words or words[:2] == ["có", "thể"]:   # a number or "có thể" (a modal)
                return None
            return (end, len(words), "list" if nxt == "," else "end") if words else None
        word, low, comma = m.group(2), m.group(2).lower(), m.group(1).startswith(",")
        if not comma and words and words[-1].lower() == "thứ" and low in _NUMERAL:
            e, k = m.end(), len(words) + 1          # an ordinal ("người thứ ba", "thứ mười một") closes the noun phrase
            while (nx := _SYL.match(text, e)) and not nx.group(1).startswith(",") and nx.group(2).lower() in _NUMERAL:
                e, k = nx.end(), k + 1
            return e, k, "end"
        if comma:
            after = re.findall(rf"{_W}+", text[m.start(2):m.start(2) + 40])[:max(len(seg), 1)]
            if not (seg and _parallel(seg, after)):
                return (end, len(words), "list") if words else None
            seg, extra = [], extra + len(after)
        elif low in _PAIRED and not re.match(rf" +(?:{'|'.join(_PAIRED[low])})(?!{_W})", text[m.end():]):
            pass
        elif words and _COMPOUND.match(text, m.start(2)):
            return end, len(words), "end"
        elif (low in _STOP or words and low in _LATER) and not (low in _FIRST_OK and all(w.lower() in _FIRST_OK for w in words)) and words[-1:] not in [[w] for w in _BOUND.get(low, ())] \
                or word[0].isupper():
            if not words or low in _NEW_NP or word[0].isupper() or words[:2] == ["có", "thể"] or \
                    all(w.lower() in _FIRST_OK for w in words):     # a capital: a name taken by the run's verb
                return None
            if low in ("đến", "tới", "với") and [w.lower() for w in words[-2:]] == ["liên", "quan"]:
                return None         # a relational participle takes its complement: the name runs past it
            if low == "về" and (words[0].lower() in _STATE or [w.lower() for w in words[-2:]] == ["nhà", "nước"]):
                return _domain(text, m.end(), len(words) + 1)
            return end, len(words), "pred" if low in _PRED | _CLOSE else "list" if low in ("và", "hoặc") else "end"
        lead = next((i for i, w in enumerate(words) if w.lower() not in _FIRST_OK), len(words))
        if lead < len(words) and not comma and _INTRANS.match(text, m.start(2)):
            # a nominaliser (sự, việc) makes the verb after it a noun, the object: "người phải có sự đồng ý …" ends
            # at no predicate there, and a run whose end the grammar does not give is no name
            return None if words[-1].lower() in _NOMINAL else (end, len(words), "pred")
        if len(words) - extra - lead >= _LIMIT:    # a parallel part after a comma, a leading modal do not count
            return None
        words.append(word)
        seg.append(word)
        end = m.end()


def _domain(text: str, pos: int, n: int) -> tuple[int, int, str] | None:
    """The domain after "về" (at `pos`): at most three syllables closed by punctuation or a closed-class
    word; one going on as a list ("về phẩm chất, đạo đức và …") or not closing: None (uncertain)."""
    end, k = pos, 0
    while m := re.compile(rf" ({_W}+)(?!{_W})").match(text, end):
        low = m.group(1).lower()
        if low in _STOP:
            if k and not (low in ("và", "hoặc") and re.match(rf" (?!{_STOPRX[1:]}|(?:{'|'.join(_HEADS)}) )", text[m.end():])):
                return end, n + k, "end"
            return None
        if k == 3 or m.group(1)[0].isupper():
            return None
        end, k = m.end(), k + 1
    return (end, n + k, "end") if k and text[end:end + 1] in (";", ".", ":", ")", "\n", "") else None


def _coord(text: str, pos: int, n: int = 0) -> int | None:
    """The end of a name whose modifier goes on after a list marker at `pos` (see _ACTOR). A coordinated
    part holds no head of its own ("giáo dục người có hành vi …" starts a new noun phrase): uncertain."""
    end = pos
    while mk := re.compile(r"(?:, *| +(?:và|hoặc) +)").match(text, end):
        words = re.compile(rf"({_W}+)(?:(?!{_STOPRX}) [{_LO}]+(?!{_W})){{0,2}}").match(text, mk.end())
        if not words or words.group(1)[0].isupper() or words.group(1).lower() in _STOP or _ACTOR_RX.match(text, mk.end()):
            return end
        if set(words.group().lower().split()[1:]) & set(_HEADS):
            return None
        # coordination joins like with like: a part far shorter than the modifier before it, closed by a determiner
        # or taking a possessor ("người bị bạo lực gia đình, thành viên khác") is a noun phrase of its own, a second
        # thing -- the name ends before it; a parallel part ("người lập giấy tờ, tài liệu đó") shares the determiner
        if n > len(words.group().split()) + 1 and re.match(rf" (?:khác|này|đó|kia|ấy|của)(?!{_W})", text[words.end():]):
            return end if end == pos else None      # after parts already taken in: no sure cut
        end = words.end()
        if re.match(rf" {_W}", text[end:]) and not re.match(_STOPRX, text[end:]):
            return None
    return end


def _past_list(text: str, start: int, run: tuple, lead: str):
    """A run followed by ", " / "và" / "hoặc" + a word that names no actor: the modifier may go on as a list.
    False: drop the name; else the run, extended where a long modifier's list closes (see _coord)."""
    nxt = re.match(rf"(?:, *| +(?:và|hoặc) +)({_W}+)", text[run[0]:])
    if not nxt or not nxt.group(1)[0].islower():
        return run
    word, comma, short = nxt.group(1).lower(), nxt.group().startswith(","), run[1] < 3
    # a relative clause opened by bị / được / có … goes on past the comma with coordinated verbs or objects
    # ("người bị bắt, tạm giữ, tạm giam", "người có cha, mẹ, vợ …"): cut there, it is incomplete
    if short and comma and lead in _FIRST_OK | _STATE and word not in set(_HEADS) | _STOP:
        return False
    # a coordinated part that repeats the clause's opener ("người bị cưỡng ép …, bị lừa dối …") continues the clause
    if word == lead and lead in _FIRST_OK:
        return False
    if word in _STOP or _ACTOR_RX.match(text, run[0] + nxt.start(1)):
        return run
    ext = _coord(text, run[0], run[1])
    if short and comma and ext and _OPEN_VERB.match(text, ext):
        return False                # "Người khoan, đào | trái phép …": the modifiers go on past the comma
    if not short:
        if ext is None or _CAUSE.search(text[:start]):
            return False
        return ext, run[1], "end"
    # a short modifier followed by a coordinated part of the same length that names no actor is parallel to it:
    # coordinated verbs share the head ("người đánh rơi hoặc bỏ quên", "cơ sở đào tạo, bồi dưỡng": the name runs
    # on), a coordinated noun is a second thing ("chủ sở hữu, tài sản"); without a lexicon neither cut is sure: no name
    part = re.match(rf"(?:, *| +(?:và|hoặc) +)((?:{_W}+)(?: (?!(?:{_STOP_ALT})(?!{_W})){_W}+)*)", text[run[0]:])
    return False if part and len(part.group(1).split()) == run[1] else run


def _open(text: str, pos: int, run: tuple, head: str, prior: str, lead: str) -> bool:
    """The run after a head ending at `pos` leaves its phrase open (see _OPEN_VERB / _OPEN_CLAUSE), holds the
    duty modal, or has not reached its verb (only aspect words)."""
    between = text[pos:run[0]].lower().replace(",", " ").split()
    clause = lead in _FIRST_OK | _STATE or (run[1] >= 3 and head != "cơ quan")
    return bool((_OPEN_VERB.match(text, run[0]) and (clause or head != "cơ quan") and
                 not re.search(r"\bgiữa\s*$", prior, re.I)) or
                (clause and _OPEN_CLAUSE.match(text, run[0])) or
                # "người có hành vi | vi phạm …": after bị / được / có … the verb that follows belongs to the clause
                (lead in _FIRST_OK | _STATE and re.match(rf" (?:{'|'.join(_LATER)}) ", text[run[0]:])) or
                _DUTY.search(text, pos, run[0]) or all(w in _ASPECT for w in between))


def _fixed_run(text: str, pos: int, bare_ok: bool, named: bool, limit: int = 7) -> tuple[int, int] | None:
    """Documents and instruments by head: extend over modifier syllables (a capital only first, in a
    `named` instrument) up to the next function word; a comma joins two short parallel words ("khám
    bệnh, chữa bệnh": at most two syllables before it; "phòng, chống" is one part), and the part after
    it is no longer than the first. A run still going at `limit` is cut mid-phrase: the bare head.
    A title capitalises its first word and the proper names in it, and runs to its end: "và" + a
    lower-case word goes on ("Luật Hôn nhân và gia đình"), unless a determiner or another document follows."""
    end, n, first, segment, prev, lead, cut = pos, 0, 0, 0, "", "", (pos, 0)
    caps = 0        # a title's capitalised words (its proper names) do not count against the limit
    while m := re.compile(rf"(,? +)({_W}+)").match(text, end):
        word, low = m.group(2), m.group(2).lower()
        nx = re.match(rf" +({_W}+)", text[m.end():]) if named and n and low == "và" else None
        if nx and (re.match(rf"(?!(?:{_STOP_ALT}|văn|quy|pháp|luật|nghị|thông|giấy)(?!{_W}))[{_LO}]", nx.group(1)) or
                   nx.group(1)[0].isupper() and not _TITLE_BREAK.match(nx.group(1)) and not _NOT_TITLE.match(text, m.end())):
            end, n, prev = m.end(), n + 1, low
            continue
        if n and _INTRANS.match(text, m.start(2)):
            break
        # a document's subject may be coordinated: "và / hoặc" + one or two syllables that close at a boundary and
        # name no actor nor another document ("giấy phép tổ chức chương trình phim và tuần phim") is part of it
        if not named and n >= 2 and low in ("và", "hoặc") and (co := _DOC_COORD.match(text, m.end())):
            end, n = co.end(1), n + len(co.group(1).split()) + 1
            break
        comma = m.group(1).startswith(",") and not (prev == "phòng" and low == "chống")
        too_long = bool(first) and not comma and segment > first and not named
        if low in _STOP - {"chống"} and prev not in _BOUND.get(low, ()) and not (named and n == 0 and word[0].isupper()) or \
                ((n or not named) and word[0].isupper() and not (named and not comma and not _TITLE_BREAK.match(word))) or \
                (comma and (n == 0 or (segment > 2 and low != lead) or low in _NEXT_ITEM or word[0].isupper())) or \
                too_long:
            if too_long:
                end, n = cut                # a part after a comma longer than the first is no parallel part: drop it
            if low in ("đến", "tới", "với") and re.search(rf"(?<!{_W})liên quan$", text[pos:end], re.I):
                return None         # "… liên quan | đến X": cut short before the participle's complement
            break
        if n - caps == limit or n == 2 * limit:
            return (pos, 0) if bare_ok else None
        if comma:
            first, segment, cut = first or n, 0, (end, n)
        lead = low if segment == 0 else lead        # the first syllable of the part (a repeated one is parallel)
        caps += bool(named and word[0].isupper())
        end, n, segment, prev = m.end(), n + 1, segment + 1, low
    end, n = cut if first and segment > first and not named else (end, n)     # also at the sentence's end
    return (end, n) if n or bare_ok else None


# a capital inside a title is a proper name of it ("Luật Tổ chức Viện kiểm sát nhân dân"), unless it opens another
# instrument or a reference to a part of one
# after a comma, an actor's or a document's head starts the next item of a list
_NEXT_ITEM = set("tổ cá doanh cơ người giấy văn chứng thẻ hồ sổ bản hợp quyết".split())
_MEDIA = re.compile(r"cơ quan (?:báo chí|thông tin đại chúng|truyền thông)")
_NOT_TITLE = re.compile(rf" +(?:{_VI_ORG}|Nhà nước|Công ước|Hiệp định|Điều ước)(?!{_W})")
_TITLE_BREAK = re.compile(r"(?:Luật|Bộ|Nghị|Pháp|Hiến|Thông|Quyết|Chỉ|Điều|Khoản|Điểm|Chương|Mục|Phần|Văn|Số)$")
_DOC_COORD = re.compile(rf" ((?!(?:{'|'.join(_STOP | _ACTOR)}|công|giấy|văn|hợp|quyết|hồ|sổ|thẻ|bản|chứng|tài)(?!{_W}))"
                        rf"[{_LO}]+(?: (?!(?:{_STOP_ALT})(?!{_W}))[{_LO}]+)?)(?=\s*[,.;:)]|\s*$| (?:bao gồm|phải|được|do|của|cho|theo|tại|thì|đã|có)(?!{_W}))")
_COMPETENT = re.compile(rf" có thẩm quyền(?=\s*[,.;:)]|\s*$| (?:trong|theo|về|của|để|thì|và|hoặc|đối|tại)(?!{_W}))")
VI_NAMED = [("document", re.compile(r"(?<![\w])(?:[Gg]iấy phép|[Gg]iấy chứng nhận|[Cc]hứng chỉ|[Gg]iấy xác nhận|[Gg]iấy đăng ký|"
                                    r"[Vv]ăn bản chấp thuận)(?![\w])"), 0.8, True),
            ("instrument", re.compile(rf"(?<![\w])(?:Bộ luật|Luật|Pháp lệnh)(?= {_CAP})"), 0.85, True)]


def spans(text: str) -> list[tuple[str, int, int, float]]:
    found = [(t, m.start(), m.end(), c) for t, rx, c in VI_FIXED for m in rx.finditer(text)]
    # an agentive noun ("nhà sản xuất", "nhà cung cấp") takes a noun object that completes the name: cut short there
    found = [f for f in found if not (text[f[1]:f[1] + 4].lower() == "nhà " and
                                      (nx := re.match(rf" ([{_LO}]+)(?!{_W})", text[f[2]:])) and nx.group(1) not in _STOP)]
    for type_, rx, conf, bare_ok in VI_NAMED:
        for m in rx.finditer(text):
            run = _fixed_run(text, m.end(), bare_ok, type_ == "instrument")
            if run:
                found.append((type_, m.start(), run[0], conf if run[1] else 0.6))
    # a head + modifier: kept when it ends at a boundary; as the subject of a clause only where a
    # modal / adverb opens the predicate or a list goes on, or the modifier is one (two-syllable)
    # word -- else the run holds the predicate verb
    cands, names = [], set()
    for type_, rx, conf in VI_HEADS:
        for m in rx.finditer(text):
            before = text[:m.start()].split()[-1:]
            if before and before[0].lower() in _BEFORE[m.group().split()[0].lower()]:
                continue
            head, prior = m.group().lower(), text[max(0, m.start() - 40):m.start()]
            # a head written with a capital inside a sentence belongs to a proper name ("ngày Chủ nhật")
            if type_ == "party" and m.group()[0].isupper() and re.search(rf"{_W}\s*$", prior):
                continue
            # a person listed after a bare "cơ quan" shares its modifier (and its public nature)
            if head == "người" and re.search(r"[Cc]ơ quan,\s*$", prior):
                continue
            run = _run(text, m.end())
            # after the copula "là", a head whose phrase does not close there opens a description
            if before and before[0] == "là" and (run is None or text[run[0]:run[0] + 1] not in ",.;:"):
                continue
            # a relational body ("cơ quan trung ương / chuyên môn của") names its body with "của":
            # one name with a fixed body after it, else the name is incomplete
            if run and head == "cơ quan" and text[m.end():run[0]].strip().lower() in _RELATIONAL:
                body = re.match(r" của ", text[run[0]:]) and VI_FIXED[0][1].match(text, run[0] + 5)
                if re.match(r" của ", text[run[0]:]) and not body:
                    continue
                run = (body.end(), run[1] + 1, "end") if body else run
            lead = text[m.end():].split(maxsplit=1)[0].lower() if run else ""
            if head == "người" and before and before[0].lower() in _INCORP and lead not in _CLASS_OPEN:
                continue                # an incorporated object: "giết người …" is an act, not a class of persons
            # after the existential "có" (there is, has) or the indefinite "một" (a, one), "người" + a clause describes
            # someone ("cần có người thường xuyên chăm sóc", "Khi một người bị … mà"): an individual, no class of
            # persons; a one-word role ("có người đại diện", "một người giám hộ") still names the role
            if head == "người" and before and before[0].lower() in ("có", "một") and \
                    (run is None or run[1] >= 3 or lead in _FIRST_OK | _STATE):
                continue
            # "người đứng đầu" + a body holds an office of that body: the name is the body's, bounded only where
            # the body's name closes ("người đứng đầu cơ quan quản lý nhà nước về …" is cut there: dropped)
            if head == "người" and re.match(rf" đứng đầu (?:cơ quan|tổ chức|đơn vị) (?!(?:và|hoặc)(?!{_W}))[{_LO}]", text[m.end():]):
                continue
            # a passive "được / bị" + an actor is the agent of a verb that follows it ("người được cơ quan, tổ chức …
            # điều động"): the relative clause ends past that verb, which a run stopping at the agent does not reach
            if run and lead in ("được", "bị") and (ag := re.match(r"\s+\S+\s+", text[m.end():])) and \
                    _ACTOR_RX.match(text, m.end() + ag.end()):
                continue
            if run and (run := _past_list(text, m.start(), run, lead)) is False:
                continue
            # a negation followed by a content word may belong to the modifier ("cơ sở … hoạt động không vì lợi nhuận",
            # "người bị phạt cải tạo không giam giữ") or negate the predicate: only before a modal is it the predicate
            if run and run[1] >= 3 and re.match(rf" (?:không|chưa) (?!(?:được|phải|có|bị|thể|chịu|còn|đủ|cần|đồng ý)(?!{_W}))", text[run[0]:]):
                run = None
            if run and _open(text, m.end(), run, head, prior, lead):
                run = None              # an open relative clause, or one holding the duty modal: no bounded name
            last = [w.lower() for w in text[m.start():run[0]].split()[-2:]] if run else []   # "người có sự …": the
            run = None if len(last) == 2 and last[0] in _PRED and last[1] in _NOMINAL else run  # nominaliser needs its verb
            syls = text[m.start():run[0] if run else m.end() + 60].lower().split()
            # after a causative verb the noun phrase is the subject of the next verb ("hướng dẫn người yêu cầu bổ
            # sung"): a modifier of more than one word may hold that verb, unless a modal follows it (the verb comes
            # after the modal: "buộc người bị kết án phạt tù | không được …"). After the agent marker do / bởi the noun
            # phrase is followed by its own verb before the sentence's modal ("do người thực hiện | phải"): a run that
            # ends at a modal holds that verb. So after the object relative "mà" ("lợi ích mà người … đạt được"), for a
            # modifier of three syllables or more (one or two make a compound: "mà người dự thi | phải nộp")
            ok = run is not None and (run[2] != "end" or run[1] <= 2 or not _CLAUSE.search(text[:m.start()])) and \
                not (run[1] > 2 and run[2] != "pred" and _CAUSE.search(text[:m.start()])) and \
                not (run[2] == "pred" and run[1] >= 2 and re.search(r"\b(?:do|bởi)\s*$", text[:m.start()], re.I)) and \
                not (run[2] == "pred" and run[1] >= 3 and re.search(r"\bmà\s*$", text[:m.start()], re.I))
            public = ok and head == "chủ" and syls[-2:] == ["nhà", "nước"]    # the State as owner
            cands.append(("authority" if public else type_, m.start(), run[0] if ok else None, conf, syls))
            if ok:
                names.add(" ".join(syls))
    # a name keeps its form within a provision: a longer or unbounded run that begins with a name
    # found elsewhere in the text, followed by more syllables, is that name + its predicate
    for type_, start, end, conf, syls in cands:
        # A run bounded on its own that is longer than the name ("chủ sở hữu | chung", "người giám hộ | đương
        # nhiên") may as well be that name + its modifier as that name + its predicate: neither cut is sure, dropped
        for k in range(len(syls) - 1, 1, -1):
            if " ".join(syls[:k]) in names and (end is None or k < len(text[start:end].split())):
                end = None if end is not None else \
                    start + [t.end() for t in re.finditer(r"\S+", text[start:start + 200])][k - 1]
                break
        # "có thẩm quyền" restricts a body named by its function to the competent one ("cơ quan quản lý nhà nước về
        # du lịch có thẩm quyền"): part of the name where the phrase closes after it (not "có thẩm quyền + verb")
        if end is not None and type_ == "authority" and (comp := _COMPETENT.match(text, end)):
            end = comp.end()
        if end is not None:
            # the press, the media and a foreign body hold no public power under Vietnamese law: parties, not authorities
            name = text[start:end].lower()
            private = type_ == "authority" and (bool(_MEDIA.match(name)) or
                                                (name.endswith("nước ngoài") and not re.search(r"(?:ở|tại) nước ngoài$", name)))
            found.append(("party" if private else type_, start, end, conf))
    titles = [(a, b) for t, a, b, _ in found if t == "instrument"]     # a body in a title is part of it
    return [f for f in found if f[0] != "authority" or not any(a < f[1] and f[2] <= b for a, b in titles)]
