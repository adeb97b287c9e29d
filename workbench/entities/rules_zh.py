"""Entity mention rules for Chinese legal text: names of bodies by level prefix and head (部门 / 机构 / 人民政府), parties by head (者 / 人员 / 企业), documents (许可证 / 证明), 《titles》.

Each rule returns (type, start, end, confidence) spans; overlaps are resolved by
`extract.extract`. See extract.py for the types and how confidence is set."""
from __future__ import annotations

import re

# -- Chinese -----------------------------------------------------------------------------------
_ZH_GOV = (r"(?:国务院|(?:县|设区的市|市|省|乡)级以上(?:地方)?(?:各级)?人民政府|省、自治区、直辖市人民政府|"
           r"(?:地方各级|各级|县级|乡级|乡、民族乡、镇|乡镇|设区的市级?|省级|本级|同级|上级|上一级|所在地)(?:地方)?人民政府)")
_ZH_LEVEL = r"(?:同级|上级|上一级|地方各级|各级|所在地|(?:县|设区的市|市|省)级以上(?:地方)?|(?:省|设区的市|市|县|乡)级)"
_ZH_AUTH_HEAD = r"(?:主管部门|行政部门|管理部门|部门|机构|委员会|机关)"
# a modifier character: not a modal, not a function word, no coordination into a new level
_ZH_MOD = (r"(?:(?!应当|不得|可以|必须|负责|会同|依法|按照|依照|根据|[的由向对将在并及或被]|[和与][有其相各同上本县省市国乡地设])"
           r"[\u4e00-\u9fff、])")
ZH_TIER1 = re.compile(rf"{_ZH_GOV}(?:{_ZH_MOD}{{1,24}}?等?{_ZH_AUTH_HEAD})?|{_ZH_LEVEL}{_ZH_MOD}{{1,24}}?等?{_ZH_AUTH_HEAD}")
ZH_COURT = re.compile(r"(?:最高|高级|中级|基层|地方各级|各级)?人民(?:法院|检察院)|公安机关|海关")
ZH_HEADS = [("authority", re.compile(_ZH_AUTH_HEAD), 0.6, 12),
            ("party", re.compile(r"(?<![或前后再两三二])者|人员|(?<![个他工家])人(?![民员大身体畜工口类格为群数次力])|"
                                 r"(?:企业|单位|个人)(?!名称|标准|信息|卫生|隐私|财产|内部|所在地|住所|地址)|"
                                 r"(?<![出进建办开])(?:[厂场][（(][厂场][）)]|厂)|户|[货畜业船车]主"), 0.65, 10),
            ("document", re.compile(r"许可证|合格证明?|证明(?:文件|(?=[，。；、：,;:）)和或的等及与]|$))|证书|执照|批准文件|登记证|凭证"), 0.7, 12)]
ZH_INSTRUMENT = re.compile(r"《([^《》\n]{1,60})》")
_ZH_STOP_CHARS = set("，。；：、！？（）()《》“”\"' \n\t的由向对将在并及或被使给从与和者上")
# function words, modals and governing verbs: a name starts after the last of them
_ZH_STOP_WORDS = tuple("""应当 不得 可以 必须 负责 会同 依法 按照 依照 依据 根据 督促 鼓励 引导 组织 要求 责令 通知 告知
    指导 支持 协助 委托 允许 准许 禁止 取得 持有 出具 核发 发给 颁发 签发 提供 申请 办理 凭 属于 能够 予以 其他 有关
    相关 上述 前款 本款 该 各 其 本 于 以下称 方可 所称 所指 任何 所有 是指 是 为""".split())
# verbs that take a party or a document as object (查验供货者, 随附合格证明); not inside authority names
_ZH_VERBS = tuple("监督 检查 查验 审查 审核 发现 随附 附具 标注 建立 出示 收取 进入 回收".split())
_ZH_GENERIC = ("企业", "个人", "单位", "许可证", "合格证", "证书", "执照")     # a name only in context
_ZH_BARE = _ZH_GENERIC + ("货主", "畜主", "业主", "船主", "车主")


def spans(text: str) -> list[tuple[str, int, int, float]]:
    found = [("instrument", m.start(1), m.end(1), 0.95) for m in ZH_INSTRUMENT.finditer(text)]
    found += [("authority", m.start(), m.end(), 0.95) for m in ZH_COURT.finditer(text)]
    for m in ZH_TIER1.finditer(text):
        found.append(("authority", m.start(), m.end(), 0.9 if m.end() - m.start() > 4 else 0.85))
    for type_, rx, conf, reach in ZH_HEADS:
        for m in rx.finditer(text):
            start = m.start()
            while start > 0 and m.start() - start < reach and text[start - 1] not in _ZH_STOP_CHARS:
                start -= 1
            mod = text[start:m.start()]
            words = _ZH_STOP_WORDS + (_ZH_VERBS if type_ != "authority" else ())
            keep_tail = type_ == "party" and m.group() in ("人", "者")   # 申请人, 持有人, 提供者: verb + 人 / 者
            cut = max((mod.rfind(w) + len(w) for w in words
                       if w in mod and not (keep_tail and mod.rfind(w) + len(w) == len(mod))), default=0)
            mod = "" if m.group() == "个人" else mod[cut:]   # 个人 takes no modifier (保持个人卫生)
            if type_ != "party":                    # 经X批准, 报X备案, 附有X证明: a leading verb
                mod = re.sub(r"^(?:经|报|除|附有|有|转让|出借|伪造)+", "", mod)
            surface = mod + m.group()
            if (not mod and surface not in _ZH_BARE) or (m.group() == "户" and len(mod) < 2) or \
                    (surface in _ZH_GENERIC and text[max(0, m.start() - 1):m.start()] in ("本", "该", "其", "各", "此")):
                continue                            # 本单位, 该企业: the party already named, not a new one
            found.append((type_, m.start() - len(mod), m.end(), 0.5 if surface in _ZH_GENERIC else conf))
    return found
