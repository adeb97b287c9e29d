"""Where Vietnamese names end (workbench/entities/rules_vi.py): titles, lists, ordinals, bodies -- the
rules of the later rewrites, each on a sentence written for it (pure logic, no workspace)."""
from __future__ import annotations

from test_entity_rules import mentions, surfaces


def test_vi_a_title_holds_its_proper_names_and_only_parallel_commas():
    # capitals inside a title are its proper names; another instrument's head starts a new one
    found = mentions("vi", "Trừ trường hợp Luật Sĩ quan Quân đội nhân dân Việt Nam, Luật Công an nhân dân có quy định khác.")
    assert ("instrument", "Luật Sĩ quan Quân đội nhân dân Việt Nam") in found and ("instrument", "Luật Công an nhân dân") in found
    found = mentions("vi", "Theo Luật Tổ chức Viện kiểm sát nhân dân và các luật khác.")
    assert ("instrument", "Luật Tổ chức Viện kiểm sát nhân dân") in found and ("authority", "Viện kiểm sát nhân dân") not in found
    found = mentions("vi", "Theo quy định của Luật Đất đai và Ủy ban nhân dân cấp tỉnh.")
    assert ("instrument", "Luật Đất đai") in found and ("authority", "Ủy ban nhân dân cấp tỉnh") in found
    assert ("instrument", "Luật An toàn, vệ sinh lao động") in mentions("vi", "Theo Luật An toàn, vệ sinh lao động.")
    # a comma joins two short or parallel words of a title, not a long phrase and what follows it
    assert ("instrument", "Luật Khám bệnh, chữa bệnh") in mentions("vi", "Thực hiện theo Luật Khám bệnh, chữa bệnh.")
    assert ("instrument", "Luật Thuế xuất khẩu, thuế nhập khẩu") in mentions("vi", "Theo Luật Thuế xuất khẩu, thuế nhập khẩu và luật khác.")
    assert ("instrument", "Bộ luật Tố tụng hình sự") in mentions("vi", "Theo Điều 328 của Bộ luật Tố tụng hình sự, tử hình hoặc bị cấm.")
    assert ("document", "Giấy phép phân loại phim") in mentions("vi", "Cơ quan thu hồi Giấy phép phân loại phim, dừng phổ biến phim.")


def test_vi_a_nominaliser_needs_its_verb():
    assert not [s for s in surfaces("vi", "Người có sự đồng ý của cha mẹ được tham gia.") if s.endswith(" sự")]


def test_vi_a_short_part_after_a_long_modifier_is_a_second_thing():
    assert ("party", "người bị bạo lực gia đình") in mentions("vi", "Quyền của người bị bạo lực gia đình, thành viên khác trong gia đình.")
    assert ("authority", "cơ quan thanh tra cấp trên") in mentions("vi", "Căn cứ hướng dẫn của cơ quan thanh tra cấp trên, yêu cầu của nhiệm vụ.")
    # a part parallel to the modifier shares its determiner
    assert ("party", "người lập giấy tờ, tài liệu") in mentions("vi", "Có chữ ký của người lập giấy tờ, tài liệu đó đã được chứng thực.")
    # only the first coordinated part can be cut off so: after parts already taken in, no sure cut
    assert not [s for s in surfaces("vi", "Quyền của người trực tiếp nuôi con, nghĩa vụ của cha mẹ.") if "," in s]


def test_vi_ordinals_levels_proper_names_and_private_bodies():
    assert ("party", "người thứ ba") in mentions("vi", "Thẩm phán giao tài liệu cho người thứ ba bảo quản.")
    assert ("party", "người thứ mười một") in mentions("vi", "Quyền của người thứ mười một được bảo đảm.")
    assert ("authority", "Viện trưởng Viện kiểm sát nhân dân cấp dưới") in \
        mentions("vi", "Viện trưởng Viện kiểm sát nhân dân cấp dưới chịu sự lãnh đạo của cấp trên.")
    # more capitalised words join a body's name only where the name then closes: a verb may follow a place name
    assert ("authority", "Ủy ban Chứng khoán Nhà nước") in mentions("vi", "Báo cáo gửi Ủy ban Chứng khoán Nhà nước.")
    assert ("authority", "Ủy ban Mặt trận Tổ quốc Việt Nam") in mentions("vi", "Ủy ban Mặt trận Tổ quốc Việt Nam cùng cấp tham dự.")
    assert ("authority", "Bộ Văn hóa Thể thao và Du lịch") in mentions("vi", "Bộ Văn hóa Thể thao và Du lịch có trách nhiệm.")
    # before a verb the place name is left out (cut short, a known loss) rather than the verb taken in
    assert ("authority", "Sở Tư pháp") in mentions("vi", "Sở Tư pháp Hà Nội cấp cho người nộp đơn.")
    assert not [s for s in surfaces("vi", "Sở Tư pháp Hà Nội cấp cho người nộp đơn.") if s.endswith(("cấp", "Hà"))]
    assert not [s for s in surfaces("vi", "Bộ Giao thông Vận tải giao nhiệm vụ.") if s.endswith("Vận")]
    # the press and the media hold no public power: organisations the law addresses
    assert ("party", "cơ quan báo chí") in mentions("vi", "Người đứng đầu cơ quan báo chí có trách nhiệm kiểm tra.")
    assert ("party", "cơ quan du lịch nước ngoài") in mentions("vi", "Thủ tục đối với cơ quan du lịch nước ngoài.")
    assert ("party", "cơ quan đại diện ở nước ngoài") not in mentions("vi", "Thủ tục đối với cơ quan đại diện ở nước ngoài.")


def test_vi_titles_join_capitalised_conjuncts_and_organs_end_at_function_words():
    found = mentions("vi", "Theo quy định của Luật Khoa học và Công nghệ và Luật Giáo dục.")
    assert ("instrument", "Luật Khoa học và Công nghệ") in found and ("instrument", "Luật Giáo dục") in found
    # a title's first word is capitalised: a syllable that is a function word elsewhere ("quy" of "quy định") opens it
    assert ("instrument", "Luật Quy hoạch") in mentions("vi", "Quy hoạch mạng lưới theo quy định của Luật Quy hoạch;")
    assert {s for s in surfaces("vi", "Trường hợp Hội đồng trọng tài thì Tòa án giải quyết.") if "thì" in s} == set()


def test_vi_a_comma_before_a_document_head_or_a_long_part_ends_a_document():
    assert ("document", "chứng chỉ đào tạo") in mentions("vi", "Người học có chứng chỉ đào tạo, chứng nhận bồi dưỡng theo quy định.")
    assert ("document", "Giấy phép hợp tác") in mentions("vi", "Cơ quan cấp Giấy phép hợp tác, liên doanh sản xuất phim, cung cấp dịch vụ.")
    assert ("document", "Giấy phép hợp tác") in mentions("vi", "Cơ quan cấp Giấy phép hợp tác, liên doanh phim.")     # at a full stop too
    assert ("party", "cơ quan thông tin đại chúng") in mentions("vi", "Khi đăng, phát thông tin, cơ quan thông tin đại chúng phải bảo đảm tính chính xác.")
