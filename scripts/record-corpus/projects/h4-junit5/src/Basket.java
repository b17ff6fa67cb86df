import java.util.ArrayList;
import java.util.List;

public class Basket {
    private final List<String> items = new ArrayList<>();
    public Basket add(String item) { items.add(item.toLowerCase()); return this; }
    public List<String> items() { return items; }
    public int size() { return items.size() + 1; }
    public String first() { return items.get(0); }
}
