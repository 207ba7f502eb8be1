#pragma once
// A diamond with virtual bases: Base is shared by Left and Right, and Bottom has one Base.
struct Base {
    int id;
    explicit Base(int id) : id(id) {}
    virtual ~Base() = default;
    virtual const char *who() const { return "Base"; }
    int base_id() const { return id; }
};
struct Left : virtual Base {
    int l = 10;
    Left() : Base(-1) {}
    const char *who() const override { return "Left"; }
    virtual int left_value() const;
};
struct Right : virtual Base {
    int r = 20;
    Right() : Base(-2) {}
    virtual int right_value() const;
};
struct Bottom : Left, Right {
    int b = 30;
    Bottom() : Base(7) {}
    const char *who() const override { return "Bottom"; }
    int left_value() const override;
};
Bottom *make_bottom();                 // bottom.cpp
int sum_through_left(const Left &l);   // left.cpp
int sum_through_right(const Right &r); // right.cpp
