// A template static data member: gcc defines it STB_GNU_UNIQUE.
template <class T> struct Registry {
    static int count;
};
template <class T> int Registry<T>::count = 5;

int registry_count() { return Registry<int>::count; }
