import java.util.List;

public class Order {
    private List<String> items;

    public int count() {
        return items.size()
    }

    public String first() {
        return items.get(0).lenght();
    }
}
