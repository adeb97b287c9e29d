"""Entity mention rules for Vietnamese legal text: fixed names of state bodies, numbered instruments, parties and documents by head word with their modifier syllables.

Each rule returns (type, start, end, confidence) spans; overlaps are resolved by
`extract.extract`. See extract.py for the types and how confidence is set."""
from __future__ import annotations

import re

# -- Vietnamese --------------------------------------------------------------------------------
_LATIN = [chr(c) for c in list(range(0xC0, 0x250)) + list(range(0x1E00, 0x1F00)) if chr(c).isalpha()]
_LO = "a-z\u0300-\u036f" + "".join(c for c in _LATIN if c.islower())   # with combining marks (NFD text)
_UP = "A-Z" + "".join(c for c in _LATIN if c.isupper())
_CAP, _LOW = rf"[{_UP}][{_LO}]*", rf"[{_LO}]+"
_VI_ORG = r"(?:Bộ|Sở|Tổng cục|Chi cục|Cục|Ủy ban|Uỷ ban|Hội đồng|Tòa|Toà|Viện|Thủ|Quốc|Thanh|Chính)"
_VI_NAME = rf"{_CAP}(?: (?:{_CAP}|{_LOW}))?(?:(?: và|,| -) (?!{_VI_ORG}\b){_CAP}(?: (?!(?:có|phải|được|là|và)\b){_LOW})?)*"
VI_FIXED = [
    ("authority", re.compile(r"(?:Ủy|Uỷ) ban nhân dân(?: các)?(?: cấp (?:tỉnh|huyện|xã))?|Hội đồng nhân dân(?: cấp (?:tỉnh|huyện|xã))?|"
                             r"(?:Tòa|Toà) án nhân dân(?: (?:tối cao|cấp cao|cấp tỉnh|cấp huyện))?|Viện kiểm sát nhân dân(?: (?:tối cao|cấp tỉnh|cấp huyện))?|"
                             r"Thủ tướng Chính phủ|Chính phủ|Quốc hội|[Cc]ơ quan (?:nhà nước |quản lý nhà nước )?có thẩm quyền"), 0.9),
    ("authority", re.compile(rf"(?:(?:Bộ trưởng|Thủ trưởng|Thanh tra|Giám đốc|Cục trưởng|Chánh thanh tra) )?"
                             rf"(?:Bộ|Sở|Tổng cục|Chi cục|Cục|Ủy ban|Uỷ ban|Hội đồng) {_VI_NAME}"), 0.85),
    ("instrument", re.compile(r"(?:Bộ luật|Luật|Pháp lệnh|Nghị định|Nghị quyết|Thông tư(?: liên tịch)?|Quyết định|Chỉ thị)"
                              r"(?: số)? \d+/\d{4}/[A-ZĐ0-9\-]+"), 0.95),
    ("party", re.compile(r"(?<![\w])(?:[Tt]ổ chức(?=\s*(?:[,.;:)]|$|(?:và|hoặc) (?:cá nhân|người)|cá nhân|phải|không|được|có|là|vi phạm|nước ngoài|trong nước))|"
                         r"[Cc]á nhân|[Dd]oanh nghiệp|[Tt]hương nhân|[Hh]ộ kinh doanh|[Hh]ộ gia đình|[Nn]hà (?:đầu tư|thầu|sản xuất|nhập khẩu|cung cấp)|"
                         r"[Nn]gười sử dụng lao động|[Nn]gười lao động)(?![\w])"), 0.7),
]
# heads whose name runs on over lowercase modifier syllables up to the next function word
VI_HEADS = [("party", re.compile(r"(?<![\w])(?<!trên )(?<!làm )(?:[Cc]ơ sở|[Nn]gười|[Cc]hủ(?! (?:trì|động|yếu|trương|đề|quyền)\b)|"
                                 r"[Đđ]ơn vị)(?= )"), 0.65, False),
            ("document", re.compile(r"(?<![\w])(?:[Gg]iấy phép|[Gg]iấy chứng nhận|[Cc]hứng chỉ|[Gg]iấy xác nhận|[Gg]iấy đăng ký|"
                                    r"[Vv]ăn bản chấp thuận)(?![\w])"), 0.8, True),
            ("instrument", re.compile(rf"(?<![\w])(?:Bộ luật|Luật|Pháp lệnh)(?= {_CAP})"), 0.85, True)]
_VI_STOP = set("phải không được có là và hoặc của theo tại trong khi thì đã đang sẽ cho với về để do bị từ đến trên dưới "
               "này đó nếu mà các những thuộc chịu nộp nào ấy đây gồm sau trước số năm ngày quy trừ xin".split())
_VI_STOP_LATER = {"vi"}     # "người vi phạm" is a name, "cơ sở … vi phạm" ends at the verb
_VI_HEADWORDS = ("tổ", "cá", "doanh", "cơ", "người", "bộ", "sở", "ủy", "uỷ", "giấy", "văn", "chứng")
_VI_SYL = re.compile(rf"(,? )([{_UP}{_LO}]+)")


def _vi_run(text: str, pos: int, bare_ok: bool, named: bool, limit: int = 7) -> tuple[int, int] | None:
    """Extend a head at `pos` over modifier syllables (a capital only first, in a `named` instrument);
    (end, syllables), or None when there are none and the bare head is no name."""
    end, n, first, segment = pos, 0, 0, 0      # a segment after a comma is parallel: no longer than the first
    while n < limit and (m := _VI_SYL.match(text, end)):
        word, comma = m.group(2), m.group(1).startswith(",")
        if word.lower() in _VI_STOP or (n and word.lower() in _VI_STOP_LATER) or \
                ((n or not named) and word[0].isupper()) or \
                (comma and (n == 0 or word.lower() in _VI_HEADWORDS or word[0].isupper())) or \
                (first and not comma and segment > first):
            break
        if comma:
            first, segment = first or n, 0
        end, n, segment = m.end(), n + 1, segment + 1
    return (end, n) if n or bare_ok else None


def spans(text: str) -> list[tuple[str, int, int, float]]:
    found = [(t, m.start(), m.end(), c) for t, rx, c in VI_FIXED for m in rx.finditer(text)]
    for type_, rx, conf, bare_ok in VI_HEADS:
        for m in rx.finditer(text):
            run = _vi_run(text, m.end(), bare_ok, type_ == "instrument")
            if run:
                found.append((type_, m.start(), run[0], conf if run[1] else 0.6))
    return found
